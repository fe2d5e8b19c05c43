-- wrk script for scripts/abuse.sh: a registration flood, every request a new name.
local counter = 0
local prefix = tostring(os.time()) .. "-" .. tostring(math.random(1000000))
function request()
    counter = counter + 1
    local body = string.format('{"name":"flood-%s-%d","password":"flood password"}', prefix, counter)
    return wrk.format("POST", "/v1/auth/register", {["Content-Type"] = "application/json"}, body)
end
function done(summary, latency, requests)
    io.write(string.format("figures: requests=%d rps=%.1f p50=%.2f p95=%.2f p99=%.2f non2xx=%d errors=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(95) / 1000, latency:percentile(99) / 1000, summary.errors.status,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
