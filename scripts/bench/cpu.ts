/** CPU time a process has used, from /proc/<pid>/stat (utime + stime, in clock ticks of 10 ms). */
import { readFileSync } from "node:fs";

const TICK_US = 10_000;

export function cpuMicros(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  // The command name (field 2) may hold spaces; the fields counted from after its closing parenthesis.
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) * TICK_US;
}
