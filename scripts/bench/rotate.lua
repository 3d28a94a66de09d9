-- wrk script: requests the paths listed in a file (one per line) in turn, with the headers given by
-- -H; at the end writes one JSON line with what the bench reads. Usage: wrk -s rotate.lua URL -- FILE
local paths = {}
local next = 0

function init(args)
  for line in io.lines(args[1]) do paths[#paths + 1] = line end
end

function request()
  next = next % #paths + 1
  return wrk.format("GET", paths[next])
end

function done(summary, latency, requests)
  io.write(string.format(
    '{"requests":%d,"seconds":%.6f,"errors":%d,"non2xx":%d,"p50Us":%d,"p99Us":%d}\n',
    summary.requests, summary.duration / 1e6,
    summary.errors.connect + summary.errors.read + summary.errors.write + summary.errors.timeout,
    summary.errors.status, latency:percentile(50), latency:percentile(99)))
end
