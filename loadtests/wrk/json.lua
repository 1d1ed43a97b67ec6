-- wrk script: after wrk's own text report, prints one JSON summary (µs latencies, errors, responses per X-Backend and status) between marker lines.
--
-- Configuration, without environment variables: script arguments after `--`, e.g.
--   wrk -t2 -c50 -d5s --latency -s json.lua http://127.0.0.1:8080/items -- method=POST body='{"a":1}' header='Content-Type: application/json'
-- Arguments: method=, path=, body=, header= (repeatable), count=off.
-- Defaults come from wrk itself (GET, the URL's path). WRK_METHOD, WRK_PATH and WRK_BODY are read only
-- when no argument sets the same thing, so a shell wrapper can still steer a run.
--
-- Counting responses needs the response() hook, and wrk parses headers only when that hook exists,
-- which costs throughput; `count=off` removes the hook for peak-throughput runs.
--
-- Output fields (format "benchline-wrk@1"): requests, duration_us, bytes, threads,
-- errors {connect, read, write, status, timeout}, latency {min, max, mean, stdev, percentiles {"1".."99.999"}} in µs
-- (absent when no response was timed), thread_rate {mean, stdev, max}, responses, statuses {code: n},
-- backends {X-Backend value: n}, counted (false with count=off). ci/adapters/wrk.js reads them.
--
-- Each wrk thread has its own Lua state: response() counts into that thread's globals, setup()
-- remembers every thread, and done() (run in the main state) sums them with thread:get().

local MARK_BEGIN = "--- benchline-json ---"
local MARK_END = "--- end benchline-json ---"

-- The fine curve for distributions; the five named percentiles are part of it.
local CURVE = { 1, 5, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 95, 97.5, 99, 99.5, 99.9, 99.95, 99.99, 99.999 }

local threads = {}

-- Per-thread tallies (globals so thread:get can read them).
responses = 0
counting = true
backends = {}
statuses = {}

function setup(thread)
   table.insert(threads, thread)
end

local function parse_args(args)
   local cfg = { headers = {} }
   for _, a in ipairs(args or {}) do
      local k, v = a:match("^([%a_]+)=(.*)$")
      if not k then
         error("json.lua: argument '" .. a .. "' is not key=value (method=, path=, body=, header=, count=off)")
      end
      if k == "header" then
         local name, value = v:match("^%s*([^:]+):%s*(.*)$")
         if not name then error("json.lua: header='" .. v .. "' must look like 'Name: value'") end
         cfg.headers[name] = value
      elseif k == "method" or k == "path" or k == "body" or k == "count" then
         cfg[k] = v
      else
         error("json.lua: unknown argument '" .. k .. "' (method=, path=, body=, header=, count=off)")
      end
   end
   return cfg
end

function init(args)
   local cfg = parse_args(args)
   wrk.method = cfg.method or os.getenv("WRK_METHOD") or wrk.method
   wrk.path = cfg.path or os.getenv("WRK_PATH") or wrk.path
   wrk.body = cfg.body or os.getenv("WRK_BODY") or wrk.body
   for name, value in pairs(cfg.headers) do wrk.headers[name] = value end
   if cfg.count == "off" then
      response = nil
      counting = false
   end
end

local function backend_of(headers)
   local b = headers["X-Backend"] or headers["x-backend"]
   if b then return b end
   -- Proxies may rewrite the case of header names (HTTP/2 hops lower-case them).
   for name, value in pairs(headers) do
      if name:lower() == "x-backend" then return value end
   end
   return nil
end

function response(status, headers, body)
   responses = responses + 1
   local s = tostring(status)
   statuses[s] = (statuses[s] or 0) + 1
   local b = backend_of(headers)
   if b then backends[b] = (backends[b] or 0) + 1 end
end

-- Minimal JSON encoder: numbers, strings, booleans and string-keyed tables are all this output needs.
local function num(v)
   if v ~= v or v == math.huge or v == -math.huge then return "null" end
   if v == math.floor(v) and math.abs(v) < 2^53 then return string.format("%d", v) end
   return string.format("%.17g", v)
end

local function str(s)
   return '"' .. s:gsub('[%c"\\]', function(c)
      local named = { ['"'] = '\\"', ['\\'] = '\\\\', ['\n'] = '\\n', ['\r'] = '\\r', ['\t'] = '\\t' }
      return named[c] or string.format("\\u%04x", c:byte())
   end) .. '"'
end

local function encode(v)
   local t = type(v)
   if t == "number" then return num(v) end
   if t == "string" then return str(v) end
   if t == "boolean" then return tostring(v) end
   if t == "nil" then return "null" end
   local keys = {}
   for k in pairs(v) do table.insert(keys, tostring(k)) end
   table.sort(keys)
   local parts = {}
   for _, k in ipairs(keys) do
      local value = v[k]
      if value == nil then value = v[tonumber(k)] end
      table.insert(parts, str(k) .. ":" .. encode(value))
   end
   return "{" .. table.concat(parts, ",") .. "}"
end

local function add_counts(into, from)
   for k, n in pairs(from or {}) do into[k] = (into[k] or 0) + n end
end

function done(summary, latency, requests)
   local total = { responses = 0, backends = {}, statuses = {}, counted = #threads > 0 }
   for _, t in ipairs(threads) do
      if not t:get("counting") then total.counted = false end
      total.responses = total.responses + (t:get("responses") or 0)
      add_counts(total.backends, t:get("backends"))
      add_counts(total.statuses, t:get("statuses"))
   end

   local percentiles = {}
   -- With no completed request wrk's histogram is empty and min is a sentinel: report no latency at all.
   local has_latency = summary.requests > 0 and latency.max > 0
   if has_latency then
      for _, p in ipairs(CURVE) do percentiles[string.format("%g", p)] = latency:percentile(p) end
   end

   local out = {
      format = "benchline-wrk@1",
      requests = summary.requests,
      duration_us = summary.duration,
      bytes = summary.bytes,
      errors = summary.errors,
      threads = #threads,
      latency = has_latency and {
         min = latency.min, max = latency.max, mean = latency.mean, stdev = latency.stdev,
         percentiles = percentiles,
      } or nil,
      thread_rate = { mean = requests.mean, stdev = requests.stdev, max = requests.max },
      responses = total.responses,
      statuses = total.statuses,
      backends = total.backends,
      counted = total.counted,
   }
   io.write(MARK_BEGIN, "\n", encode(out), "\n", MARK_END, "\n")
end
