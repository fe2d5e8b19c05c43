-- One wrk script for every scenario, driven by the environment (wrk gives each thread its own Lua state):
--   BENCH_PATHS   a file of request paths, one a line; each thread walks it from its own offset
--   BENCH_METHOD  GET (default) or POST
--   BENCH_BODY    the POST body (JSON); "%n" is replaced by a per-request counter so bodies differ
--   BENCH_TOKEN   a bearer token, when the scenario is signed in
--   BENCH_OUT     where done() writes key=value figures (requests, rps, p50/p95/p99 in ms, errors)
--   BENCH_DELAY_MS  a pause before each request of a connection, for a bounded load that leaves CPU to others
--   BENCH_BROWSER  set for the web client's pages: the Accept-Encoding Chromium sends (wrk keeps the bytes as sent)
-- setup(), init(), done() and lines_of(), found beside this script whatever the working directory.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
local method = os.getenv("BENCH_METHOD") or "GET"
local body = os.getenv("BENCH_BODY")
local token = os.getenv("BENCH_TOKEN")
local paths = lines_of(os.getenv("BENCH_PATHS"))

local pause = tonumber(os.getenv("BENCH_DELAY_MS") or "")
if pause and pause > 0 then
  function delay() return pause end
end

local headers = {}
if token and token ~= "" then headers["Authorization"] = "Bearer " .. token end
if body then headers["Content-Type"] = "application/json" end
if os.getenv("BENCH_BROWSER") then headers["Accept-Encoding"] = "gzip, deflate, br, zstd" end
-- A writer posts from a device, as the apps do: the trust judge remembers its origin (docs/TRUST.md).
if method == "POST" then headers["X-Visitor-Id"] = "bench-device-0001" end

function request()
  counter = counter + 1
  local path = paths[(counter % #paths) + 1]
  local payload = nil
  if body then payload = body:gsub("%%n", tostring(counter)) end
  return wrk.format(method, path, headers, payload)
end

