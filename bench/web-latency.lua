-- wrk script for bench/web-latency.sh: rotates through the URLs in $URLS_FILE (one path per line) and prints
-- p50/p95/p99 and the error count as one line that the shell script parses.
local paths = {}
local counter = 0
function init(args)
  for line in io.lines(os.getenv("URLS_FILE")) do
    if #line > 0 then paths[#paths + 1] = line end
  end
end
function request()
  counter = counter + 1
  return wrk.format("GET", paths[(counter % #paths) + 1])
end
function done(summary, latency, requests)
  local errs = summary.errors.status + summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout
  io.write(string.format("RESULT requests=%d rps=%.0f p50_ms=%.1f p95_ms=%.1f p99_ms=%.1f max_ms=%.1f errors=%d\n",
    summary.requests, summary.requests / (summary.duration / 1e6), latency:percentile(50) / 1000,
    latency:percentile(95) / 1000, latency:percentile(99) / 1000, latency.max / 1000, errs))
end
