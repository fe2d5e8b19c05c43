-- The mixed scenario's wrk script: one run mixes methods, bodies and bearer tokens (scripts/bench/workload.py
-- writes the lines). Driven by the environment (wrk gives each thread its own Lua state):
--   BENCH_MIXED   lines of METHOD <TAB> PATH <TAB> USER <TAB> BODY; each thread walks them from its own offset
--                 USER: 0 anonymous, else the line of BENCH_TOKENS whose token signs the request in
--                 BODY: empty, or JSON where "%n" is replaced by a per-request counter so bodies differ
--   BENCH_TOKENS  bearer tokens, one a line
--   BENCH_OUT     where done() writes key=value figures (the same as wrk.lua's)
-- setup(), init(), done() and lines_of(), found beside this script whatever the working directory.
dofile((debug.getinfo(1, "S").source:match("^@(.*/)") or "./") .. "common.lua")
local tokens = {}
for _, line in ipairs(lines_of(os.getenv("BENCH_TOKENS"))) do tokens[#tokens + 1] = "Bearer " .. line end
-- Lines stay strings until they are sent: 200,000 parsed tables per thread would cost far more memory.
local lines = lines_of(os.getenv("BENCH_MIXED"))

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

