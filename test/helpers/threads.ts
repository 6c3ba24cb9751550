/**
 * Test helper: signals sent to a process's threads one by one, as the kernel may deliver a
 * signal sent to the process (a child's exit, a terminal resized) to any thread that does not
 * block it; and this process's children, found by what they run.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';

/**
 * Sends `signal` (a number, e.g. `os.constants.signals.SIGWINCH`) to every thread of process
 * `pid` but its main one: tgkill(2), through perl's `syscall` and the `syscall.ph` of Debian's
 * perl package (Node has no call that picks a thread).
 * @throws Error when perl fails (e.g. `syscall.ph` missing: `apt-get install perl`).
 */
export function signalThreads(pid: number, signal: number): void {
  const threads = readdirSync(`/proc/${pid}/task`).filter((tid) => Number(tid) !== pid);
  execFileSync('perl', ['-e', 'require "syscall.ph"; my ($pid, $sig, @tids) = map { $_ + 0 } @ARGV; syscall(&SYS_tgkill, $pid, $_, $sig) for @tids;', String(pid), String(signal), ...threads]);
}

/** The ids of this process's running children whose command line holds `text` (read from /proc). */
export function childrenRunning(text: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/u.test(name)) continue;
    try {
      // /proc/<pid>/stat: "pid (comm) state ppid …"; comm may hold spaces and parentheses.
      const stat = readFileSync(`/proc/${name}/stat`, 'utf8');
      const ppid = Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
      if (ppid === process.pid && readFileSync(`/proc/${name}/cmdline`, 'utf8').includes(text)) found.push(Number(name));
    } catch {
      // The process ended while it was read.
    }
  }
  return found;
}
