-- wrk script for scripts/abuse.sh: one account signing in (a right password), while something else happens.
local body = '{"name":"abuse-login","password":"abuse login password"}'
function request()
    return wrk.format("POST", "/v1/auth/login", {["Content-Type"] = "application/json"}, body)
end
function done(summary, latency, requests)
    io.write(string.format("figures: requests=%d rps=%.1f p50=%.2f p95=%.2f p99=%.2f non2xx=%d errors=%d\n",
        summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
        latency:percentile(95) / 1000, latency:percentile(99) / 1000, summary.errors.status,
        summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout))
end
