-- What every wrk script of the bench shares: reading a file of lines, each thread walking them from its own
-- offset (`counter`), and done(), which writes the figures as key=value lines in BENCH_OUT (requests, rps,
-- p50/p95/p99 and max in ms, non-2xx answers, socket errors) for scripts/bench.sh.

-- The non-empty lines of the file at `path`.
function lines_of(path)
  local lines = {}
  for line in io.lines(path) do
    if line ~= "" then lines[#lines + 1] = line end
  end
  return lines
end

local threads = {}
counter = 0

function setup(thread)
  thread:set("offset", #threads * 7919)
  threads[#threads + 1] = thread
end

function init(args)
  counter = offset or 0
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
