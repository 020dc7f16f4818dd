import { readdirSync, readFileSync } from 'node:fs';

// CPU time used by the processes of a benchmark, from /proc (Linux). On a shared machine wall time swings
// with the neighbours' load; the CPU a run costs swings much less, and the CPU of each side (browser,
// server, database, load generator) shows which of them limits.

const MS_PER_TICK = 1000 / 100; // USER_HZ is 100 on Linux

type ProcessInfo = { ppid: number; cpuMs: number; command: string };

function processTable(): Map<number, ProcessInfo> {
  const table = new Map<number, ProcessInfo>();
  let entries: string[] = [];
  try {
    entries = readdirSync('/proc');
  } catch {
    return table; // not Linux: no figures
  }
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      // The fields after the command name (which may hold spaces) start at state: ppid is the 2nd of
      // them, utime the 12th and stime the 13th.
      const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
      const command = readFileSync(`/proc/${entry}/cmdline`, 'utf8').replace(/\0/g, ' ');
      table.set(Number(entry), {
        ppid: Number(fields[1]),
        cpuMs: (Number(fields[11]) + Number(fields[12])) * MS_PER_TICK,
        command,
      });
    } catch {
      // the process ended while we looked
    }
  }
  return table;
}

function descendsFrom(table: Map<number, ProcessInfo>, pid: number, ancestor: number): boolean {
  for (
    let current = table.get(pid)?.ppid;
    current !== undefined && current > 1;
    current = table.get(current)?.ppid
  )
    if (current === ancestor) return true;
  return false;
}

/** CPU ms so far of every process descended from `ancestor` (this process by default). */
export function descendantsCpuMs(ancestor = process.pid): number {
  const table = processTable();
  let total = 0;
  for (const [pid, info] of table) if (descendsFrom(table, pid, ancestor)) total += info.cpuMs;
  return total;
}

/** CPU ms so far of the Postgres backends serving `database` (their process title names it). */
export function postgresCpuMs(database: string): number {
  let total = 0;
  for (const info of processTable().values())
    if (info.command.startsWith('postgres:') && info.command.includes(` ${database} `)) total += info.cpuMs;
  return total;
}

/** CPU ms so far of this process. */
export function ownCpuMs(): number {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1000;
}

/** The whole machine's busy and total CPU ms so far (all cores). */
export function machineCpuMs(): { busy: number; total: number } {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0] ?? '';
  const fields = line.trim().split(/\s+/).slice(1).map(Number);
  const idle = (fields[3] ?? 0) + (fields[4] ?? 0);
  const total = fields.reduce((sum, value) => sum + value, 0);
  return { busy: (total - idle) * MS_PER_TICK, total: total * MS_PER_TICK };
}
