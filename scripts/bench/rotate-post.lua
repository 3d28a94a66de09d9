-- wrk script: POSTs the bodies listed in a file (one per line, e.g. MCP messages) in turn to the
-- URL's path, with the headers given by -H; at the end writes the same JSON line as rotate.lua.
-- Usage: wrk -s rotate-post.lua URL -- FILE
local bodies = {}
local next = 0

function init(args)
  for line in io.lines(args[1]) do bodies[#bodies + 1] = line end
end

function request()
  next = next % #bodies + 1
  return wrk.format("POST", nil, nil, bodies[next])
end

function done(summary, latency, requests)
  io.write(string.format(
    '{"requests":%d,"seconds":%.6f,"errors":%d,"non2xx":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, latency:percentile(50), latency:percentile(99)))
end
