-- The coupon rush's rate: wrk POSTs claims of one coupon (RUSH_COUPON), each the claim of a user of RUSH_TOKENS
-- (one bearer token a line) not seen before in the run: thread t of RUSH_THREADS takes users t, t + T, t + 2T, …
-- So every request is a first claim and a session checked for the first time, as in a rush (the pgbench it is
-- compared with runs both statements).
local threads = 0
function setup(thread)
  threads = threads + 1
  thread:set("tid", threads)
end

local tokens = {}
function init(args)
  local total = tonumber(os.getenv("RUSH_THREADS"))
  local n = 0
  for line in io.lines(os.getenv("RUSH_TOKENS")) do
    n = n + 1
    if n % total == tid - 1 then tokens[#tokens + 1] = line end
  end
end

local path = "/v1/coupons/" .. os.getenv("RUSH_COUPON") .. "/claims"
local counter = 0
function request()
  counter = counter + 1
  -- Past the last user it wraps around (a claim of a user seen before): the run is sized so it does not.
  local token = tokens[(counter - 1) % #tokens + 1]
  return wrk.format("POST", path, {["Authorization"] = "Bearer " .. token, ["Content-Length"] = "0"}, "")
end
