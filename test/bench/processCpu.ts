/**
 * Where a benchmark's CPU time went, by process and thread: this process's threads (the
 * harness, and worker threads such as the host's) and those of every process it started
 * (Chromium's browser, renderer, GPU and network processes), read from Linux's /proc before
 * and after a run. On a machine without /proc the snapshot is empty.
 */
import { readdirSync, readFileSync } from 'node:fs';

/** CPU milliseconds by process id and "process kind / thread name" (`pid\tkind / name`). */
export type CpuSnapshot = Map<string, number>;

/** utime + stime of a /proc stat line, in ms (clock ticks of 10 ms). */
function cpuMs(stat: string): number {
  const f = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  return (Number(f[11]) + Number(f[12])) * 10;
}

function read(path: string): string | undefined {
  try {
    return readFileSync(path, 'utf8');
  } catch {
    return undefined; // a process or thread that ended meanwhile
  }
}

/** What a process is: `bench` for this one, Chromium's `--type` (the browser has none), else its name. */
function kindOf(pid: number): string {
  if (pid === process.pid) return 'bench';
  const argv = (read(`/proc/${pid}/cmdline`) ?? '').split('\0').join(' ');
  const type = /--type=(\S+)/.exec(argv)?.[1];
  const sub = /--utility-sub-type=\S*?(\w+)Service/.exec(argv)?.[1];
  if (type) return sub ? `${type} (${sub})` : type;
  return /chrom/i.test(argv) ? 'browser' : (argv.split(' ')[0].split('/').pop() ?? String(pid));
}

/** This process and its descendants. */
function family(): number[] {
  const parent = new Map<number, number>();
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const stat = read(`/proc/${d}/stat`);
    if (stat) parent.set(Number(d), Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]));
  }
  const mine = new Set([process.pid]);
  for (let grew = true; grew;) {
    grew = false;
    for (const [pid, ppid] of parent) {
      if (!mine.has(pid) && mine.has(ppid)) {
        mine.add(pid);
        grew = true;
      }
    }
  }
  return [...mine];
}

export function cpuSnapshot(): CpuSnapshot {
  const out: CpuSnapshot = new Map();
  let pids: number[];
  try {
    pids = family();
  } catch {
    return out;
  }
  for (const pid of pids) {
    const kind = kindOf(pid);
    let tids: string[] = [];
    try {
      tids = readdirSync(`/proc/${pid}/task`);
    } catch {
      continue;
    }
    for (const tid of tids) {
      const stat = read(`/proc/${pid}/task/${tid}/stat`);
      // thread names are cut at 15 characters by the kernel: "ThreadPoolForeg", "DedicatedWorker"
      const name = (read(`/proc/${pid}/task/${tid}/comm`) ?? '?').trim().replace(/\d+$/, '');
      if (!stat) continue;
      const key = `${pid}\t${kind} / ${name}`;
      out.set(key, (out.get(key) ?? 0) + cpuMs(stat));
    }
  }
  return out;
}

/** CPU ms spent between two snapshots, by process kind and thread, largest first, those over `min` ms. */
export function cpuSpent(before: CpuSnapshot, after: CpuSnapshot, min = 20): [string, number][] {
  const spent = new Map<string, number>();
  for (const [k, v] of after) {
    const name = k.split('\t')[1];
    spent.set(name, (spent.get(name) ?? 0) + v - (before.get(k) ?? 0));
  }
  return [...spent].filter(([, ms]) => ms >= min).sort((a, b) => b[1] - a[1]);
}
