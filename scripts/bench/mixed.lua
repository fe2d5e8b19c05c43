-- The mixed scenario's wrk script: one run mixes methods, bodies and bearer tokens (scripts/bench/workload.py
-- writes the lines). Driven by the environment (wrk gives each thread its own Lua state):
--   BENCH_MIXED   lines of METHOD <TAB> PATH <TAB> USER <TAB> BODY; each thread walks them from its own offset
--                 USER: 0 anonymous, else the line of BENCH_TOKENS whose token signs the request in
--                 BODY: empty, or JSON where "%n" is replaced by a per-request counter so bodies differ
--   BENCH_TOKENS  bearer tokens, one a line
--   BENCH_OUT     where done() writes key=value figures (the same as wrk.lua's)
local tokens = {}
for line in io.lines(os.getenv("BENCH_TOKENS")) do
  if line ~= "" then tokens[#tokens + 1] = "Bearer " .. line end
end
-- Lines stay strings until they are sent: 200,000 parsed tables per thread would cost far more memory.
local lines = {}
for line in io.lines(os.getenv("BENCH_MIXED")) do
  if line ~= "" then lines[#lines + 1] = line end
end

local threads = {}
local counter = 0

function setup(thread)
  thread:set("offset", #threads * 7919)
  threads[#threads + 1] = thread
end

function init(args)
  counter = offset or 0
end

function request()
  counter = counter + 1
  local method, path, user, body = lines[(counter % #lines) + 1]:match("^(%u+)\t([^\t]+)\t(%d+)\t?(.*)$")
  local headers = {}
  local token = tokens[tonumber(user)]
  if token then headers["Authorization"] = token end
  if body == "" then
    body = nil
  else
    headers["Content-Type"] = "application/json"
    body = body:gsub("%%n", tostring(counter))
  end
  return wrk.format(method, path, headers, body)
end

function done(summary, latency, requests)
  local out = assert(io.open(os.getenv("BENCH_OUT"), "w"))
  local seconds = summary.duration / 1e6
  local e = summary.errors
  out:write(string.format("requests=%d\n", summary.requests))
  out:write(string.format("seconds=%.2f\n", seconds))
  out:write(string.format("rps=%.1f\n", summary.requests / seconds))
  out:write(string.format("p50=%.2f\n", latency:percentile(50) / 1000))
  out:write(string.format("p95=%.2f\n", latency:percentile(95) / 1000))
  out:write(string.format("p99=%.2f\n", latency:percentile(99) / 1000))
  out:write(string.format("max=%.2f\n", latency.max / 1000))
  out:write(string.format("non2xx=%d\n", e.status))
  out:write(string.format("socket_errors=%d\n", e.connect + e.read + e.write + e.timeout))
  out:close()
end
