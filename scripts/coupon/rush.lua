-- The coupon rush's exact client (issue #47): every user of RUSH_TOKENS (one bearer token a line) claims coupon
-- RUSH_COUPON once with an Idempotency-Key, through wrk's connections; each thread takes every T-th user. A thread
-- whose users are all answered stops and adds a line to RUSH_OUT.threads (the caller then ends wrk's wait for its
-- duration with SIGINT; a signal sent from a thread here may reach another thread). done() writes one JSON object to
-- RUSH_OUT: answers by status and problem code, the ids answered 201 or 200, the rate from the first request to the
-- last answer, and wrk's latency percentiles in ms (of claims only: no request is sent once the users run out).
local ffi = require("ffi")
ffi.cdef [[
  typedef struct { long tv_sec; long tv_nsec; } rush_timespec;
  int clock_gettime(int clock, rush_timespec *t);
]]
local function now()
  local t = ffi.new("rush_timespec")
  ffi.C.clock_gettime(1, t)
  return tonumber(t.tv_sec) + tonumber(t.tv_nsec) / 1e9
end

local threads = {}
function setup(thread)
  threads[#threads + 1] = thread
  thread:set("tid", #threads)
end

local tokens, mine = {}, {}
local path = "/v1/coupons/" .. os.getenv("RUSH_COUPON") .. "/claims"
local reserved, sent, answered = 0, 0, 0
answers, created, first, last, assigned = {}, {}, nil, nil, 0

function init(args)
  local total = tonumber(os.getenv("RUSH_THREADS"))
  local n = 0
  for line in io.lines(os.getenv("RUSH_TOKENS")) do
    n = n + 1
    if n % total == tid - 1 then mine[#mine + 1] = line end
  end
  assigned = #mine
end

-- wrk asks before every request: each connection reserves its user here, and once none is left it idles until the
-- thread stops, so no user is sent twice and no request but a claim is timed.
function delay()
  if reserved >= #mine then return 3600000 end
  reserved = reserved + 1
  return 0
end

local function claim(token)
  return wrk.format("POST", path, {
    ["Authorization"] = "Bearer " .. token,
    ["Idempotency-Key"] = "rush-" .. string.sub(token, 1, 40),
    ["Content-Length"] = "0",
  }, "")
end

-- wrk asks the first thread for one request before it starts, to check the script: that one is not sent.
local verified = false
function request()
  if tid == 1 and not verified then
    verified = true
    return claim(mine[1])
  end
  if first == nil then first = now() end
  sent = math.min(sent + 1, #mine)
  return claim(mine[sent])
end

function response(status, headers, body)
  answered = answered + 1
  last = now()
  local key = tostring(status)
  if status >= 400 then
    key = key .. " " .. (string.match(body, '"code"%s*:%s*"([^"]+)"') or "")
  elseif status == 200 or status == 201 then
    created[#created + 1] = string.match(body, '^{"id":"([^"]+)"') or "?"
  end
  answers[key] = (answers[key] or 0) + 1
  if answered >= #mine then
    wrk.thread:stop()
    local marks = os.getenv("RUSH_OUT") .. ".threads"
    local f = io.open(marks, "a")
    f:write(tid, "\n")
    f:close()
  end
end

function done(summary, latency, requests)
  local all, ids, start, stop, total = {}, {}, nil, nil, 0
  for _, thread in ipairs(threads) do
    for key, count in pairs(thread:get("answers")) do all[key] = (all[key] or 0) + count end
    for _, id in ipairs(thread:get("created")) do ids[#ids + 1] = '"' .. id .. '"' end
    local a, b = thread:get("first"), thread:get("last")
    if a and (start == nil or a < start) then start = a end
    if b and (stop == nil or b > stop) then stop = b end
    total = total + thread:get("assigned")
  end
  local parts, answered_all = {}, 0
  for key, count in pairs(all) do
    parts[#parts + 1] = string.format('"%s": %d', key, count)
    answered_all = answered_all + count
  end
  local seconds = (start and stop) and (stop - start) or 0
  local out = io.open(os.getenv("RUSH_OUT"), "w")
  out:write(string.format(
    '{"answers": {%s}, "created": [%s], "unanswered": %d, "seconds": %.2f, "rps": %.1f, '
      .. '"p50": %.1f, "p95": %.1f, "p99": %.1f, "max": %.1f, "errors": %d}\n',
    table.concat(parts, ", "), table.concat(ids, ", "), total - answered_all, seconds,
    seconds > 0 and answered_all / seconds or 0, latency:percentile(50) / 1000, latency:percentile(95) / 1000,
    latency:percentile(99) / 1000, latency.max / 1000,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
  out:close()
end
