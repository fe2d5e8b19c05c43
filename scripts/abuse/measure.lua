-- wrk script for scripts/abuse.sh: rotates the given paths (GET) and prints one line of figures at the end.
local paths = {}
function init(args)
    for _, path in ipairs(args) do paths[#paths + 1] = path end
end
local i = 0
function request()
    i = i % #paths + 1
    return wrk.format("GET", paths[i])
end
function done(summary, latency, requests)
    io.write(string.format("figures: requests=%d rps=%.1f p50=%.2f p95=%.2f p99=%.2f non2xx=%d errors=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(95) / 1000, latency:percentile(99) / 1000, summary.errors.status,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
