-- The coupon rush's rate: wrk POSTs claims of one coupon (RUSH_COUPON), each request as the next of the users in
-- RUSH_TOKENS (one bearer token a line), each thread from its own offset. No Idempotency-Key: each is a new claim.
local tokens = {}
for line in io.lines(os.getenv("RUSH_TOKENS")) do tokens[#tokens + 1] = line end
local path = "/v1/coupons/" .. os.getenv("RUSH_COUPON") .. "/claims"
local counter = 0

function setup(thread)
  thread:set("offset", math.random(#tokens))
end

function request()
  counter = counter + 1
  local token = tokens[((offset or 0) + counter) % #tokens + 1]
  return wrk.format("POST", path, {["Authorization"] = "Bearer " .. token, ["Content-Length"] = "0"}, "")
end
