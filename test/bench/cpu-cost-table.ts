// CPU accounting for the benches: per process and per thread class, from /proc, over a window.
//
// A snapshot reads, for each watched process, its own CPU (utime + stime, which keeps the time of
// threads that already exited) plus its reaped children's (cutime + cstime: Postgres backends that
// ended), and each live thread's CPU with its name (`comm`). Threads are grouped into classes by
// name: for Node, the main thread, the OTLP workers, V8's worker threads (garbage collection and
// compilation helpers), libuv's pool; for the JVM, the JIT compilers, the GC threads and the rest
// (network, request handlers, log); every other thread of the server process belongs to the
// embedded ClickHouse, grouped by its pool name. Two snapshots give a table of CPU seconds per row.
// The whole machine's CPU over the same window (/proc/stat: user, nice, system, irq, softirq,
// steal) closes it: rows + the load generator + other processes = machine, and the "unaccounted"
// share says how much of the machine the table does not explain (other processes, the kernel's
// network work that is not charged to a thread).
import { readdirSync, readFileSync } from 'node:fs';

const TICK = 100; // USER_HZ on Linux

export interface Watched {
  /** Row prefix ("server", "kafka", "postgres"). */
  name: string;
  /** Process ids, re-read at each snapshot (Postgres backends come and go). */
  pids: () => number[];
  /** Thread name → class within the process; undefined: the process as one row. */
  classify?: (comm: string) => string;
}

export interface Snapshot {
  at: number;
  machine: number;
  /** row → CPU seconds so far; `<name>` for the process total and `<name>: <class>` per class. */
  rows: Map<string, number>;
}

function readStat(file: string): { comm: string; fields: string[] } | undefined {
  try {
    const s = readFileSync(file, 'utf8');
    const open = s.indexOf('(');
    const close = s.lastIndexOf(')');
    return { comm: s.slice(open + 1, close), fields: s.slice(close + 2).split(' ') };
  } catch { return undefined; }
}

/** CPU seconds of a process including reaped children (fields after the comm: utime 11, stime 12, cutime 13, cstime 14). */
function processSeconds(pid: number): number {
  const st = readStat(`/proc/${pid}/stat`);
  if (!st) return 0;
  const f = st.fields;
  return (Number(f[11]) + Number(f[12]) + Number(f[13]) + Number(f[14])) / TICK;
}

function threads(pid: number): Array<{ tid: number; comm: string; seconds: number }> {
  let tids: string[];
  try { tids = readdirSync(`/proc/${pid}/task`); } catch { return []; }
  const out: Array<{ tid: number; comm: string; seconds: number }> = [];
  for (const t of tids) {
    const st = readStat(`/proc/${pid}/task/${t}/stat`);
    if (st) out.push({ tid: Number(t), comm: st.comm, seconds: (Number(st.fields[11]) + Number(st.fields[12])) / TICK });
  }
  return out;
}

function machineSeconds(): number {
  const line = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).slice(1).map(Number);
  // user nice system idle iowait irq softirq steal
  return (line[0]! + line[1]! + line[2]! + line[5]! + line[6]! + line[7]!) / TICK;
}

export function snapshot(watched: readonly Watched[]): Snapshot {
  const rows = new Map<string, number>();
  const add = (k: string, v: number): void => { rows.set(k, (rows.get(k) ?? 0) + v); };
  for (const w of watched) {
    for (const pid of w.pids()) {
      const total = processSeconds(pid);
      add(w.name, total);
      if (!w.classify) continue;
      let live = 0;
      for (const t of threads(pid)) { live += t.seconds; add(`${w.name}: ${w.classify(t.comm)}`, t.seconds); }
      // Threads that ended and reaped children: in the process total, in no live thread.
      add(`${w.name}: ended threads and children`, total - live);
    }
  }
  return { at: performance.now(), machine: machineSeconds(), rows };
}

/** Node's threads (Node 24 names them). */
export function nodeThreadClass(comm: string): string | undefined {
  if (comm === 'MainThread' || comm === 'node') return 'JS main thread';
  if (comm.startsWith('otlp-worker')) return 'OTLP worker threads';
  if (comm === 'V8Worker' || comm.startsWith('V8 ')) return 'V8 worker threads (GC, compiler)';
  if (comm.startsWith('libuv-worker')) return 'libuv pool';
  if (comm === 'DelayedTaskSche' || comm === 'SignalInspector' || comm.startsWith('node')) return 'Node other';
  return undefined;
}

/** The all-in-one server: Node's threads, and the embedded ClickHouse's pools by name. */
export function serverThreadClass(comm: string): string {
  return nodeThreadClass(comm) ?? `ClickHouse ${comm.replace(/[\d_-]+$/, '') || 'thread'}`;
}

/** The broker's JVM. */
export function jvmThreadClass(comm: string): string {
  if (/Compiler|C1 |C2 /.test(comm)) return 'JIT compilers';
  if (/GC|G1 /.test(comm)) return 'GC';
  return 'broker threads';
}

/** Processes whose command line contains `marker`, with all their descendants. */
export function processTree(marker: string): number[] {
  const procs: Array<{ pid: number; ppid: number; cmd: string }> = [];
  for (const d of readdirSync('/proc')) {
    if (!/^\d+$/.test(d)) continue;
    const st = readStat(`/proc/${d}/stat`);
    if (!st) continue;
    let cmd = '';
    try { cmd = readFileSync(`/proc/${d}/cmdline`, 'utf8'); } catch { continue; }
    procs.push({ pid: Number(d), ppid: Number(st.fields[1]), cmd });
  }
  const roots = new Set(procs.filter((p) => p.cmd.includes(marker)).map((p) => p.pid));
  let grew = true;
  while (grew) {
    grew = false;
    for (const p of procs) if (!roots.has(p.pid) && roots.has(p.ppid)) { roots.add(p.pid); grew = true; }
  }
  // Only the topmost of the tree counts its reaped children; a descendant's own total is separate.
  return [...roots];
}

export interface CostRow { row: string; seconds: number; usPerUnit: number; share: number }

export interface CostTable {
  seconds: number;
  rows: CostRow[];
  /** Sum of the process rows (classes are inside them). */
  total: number;
  machine: number;
  generator: number;
  unaccounted: number;
}

/**
 * The table between two snapshots, per `units` (visible spans). `generator` is the load
 * generator's CPU seconds in the window, reported apart and excluded from the total.
 */
export function costTable(a: Snapshot, b: Snapshot, watched: readonly Watched[], units: number, generator: number): CostTable {
  const delta = (k: string): number => (b.rows.get(k) ?? 0) - (a.rows.get(k) ?? 0);
  const rows: CostRow[] = [];
  let total = 0;
  for (const w of watched) {
    const t = delta(w.name);
    total += t;
    rows.push({ row: w.name, seconds: t, usPerUnit: 0, share: 0 });
    if (!w.classify) continue;
    const classes = [...new Set([...a.rows.keys(), ...b.rows.keys()].filter((k) => k.startsWith(`${w.name}: `)))];
    const sub = classes.map((k) => ({ row: `  ${k.slice(w.name.length + 2)}`, seconds: delta(k) })).filter((r) => Math.abs(r.seconds) >= 0.005);
    sub.sort((x, y) => y.seconds - x.seconds);
    for (const r of sub) rows.push({ ...r, usPerUnit: 0, share: 0 });
  }
  for (const r of rows) { r.usPerUnit = units > 0 ? (r.seconds * 1e6) / units : NaN; r.share = total > 0 ? r.seconds / total : 0; }
  const machine = b.machine - a.machine;
  return { seconds: (b.at - a.at) / 1000, rows, total, machine, generator, unaccounted: machine - total - generator };
}

export function formatCostTable(t: CostTable, units: number, unitName = 'visible span'): string {
  const fmt = (n: number, d = 1): string => n.toLocaleString('en-US', { minimumFractionDigits: d, maximumFractionDigits: d });
  const lines = [
    `  CPU cost table over ${fmt(t.seconds, 0)} s, ${fmt(units, 0)} ${unitName}s (µs of CPU per ${unitName}; cores = CPU s / window s)`,
    `    ${'row'.padEnd(44)} ${'µs/span'.padStart(9)} ${'cores'.padStart(7)} ${'share'.padStart(6)}`,
  ];
  for (const r of t.rows) lines.push(`    ${r.row.padEnd(44)} ${fmt(r.usPerUnit).padStart(9)} ${fmt(r.seconds / t.seconds, 2).padStart(7)} ${`${fmt(r.share * 100, 0)}%`.padStart(6)}`);
  const per = (s: number): string => fmt(units > 0 ? (s * 1e6) / units : NaN).padStart(9);
  lines.push(`    ${'total (server + kafka + postgres)'.padEnd(44)} ${per(t.total)} ${fmt(t.total / t.seconds, 2).padStart(7)}`);
  lines.push(`    ${'load generator (excluded)'.padEnd(44)} ${per(t.generator)} ${fmt(t.generator / t.seconds, 2).padStart(7)}`);
  lines.push(`    ${'machine (/proc/stat)'.padEnd(44)} ${per(t.machine)} ${fmt(t.machine / t.seconds, 2).padStart(7)}`);
  const closes = t.machine > 0 ? Math.abs(t.unaccounted) / t.machine : NaN;
  lines.push(`    ${'unaccounted (machine − total − generator)'.padEnd(44)} ${per(t.unaccounted)} ${fmt(t.unaccounted / t.seconds, 2).padStart(7)}   closes within ${fmt(closes * 100)} % ${closes <= 0.05 ? '(≤ 5 %: yes)' : '(> 5 %: NO — something else used the machine)'}`);
  return lines.join('\n');
}
