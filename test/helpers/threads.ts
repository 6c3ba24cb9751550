/**
 * Test helper: signals to this process's threads, as the kernel may deliver a signal sent to the
 * process (a child's exit, a terminal resized) to any thread that does not block it.
 */
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';

/**
 * Sends `signal` (a number, e.g. `os.constants.signals.SIGWINCH`) to every thread of this
 * process but the main one: tgkill(2), through perl's `syscall` and the `syscall.ph` of
 * Debian's perl package (Node has no call that picks a thread).
 * @throws Error when perl fails (e.g. `syscall.ph` missing: `apt-get install perl`).
 */
export function signalOtherThreads(signal: number): void {
  const threads = readdirSync('/proc/self/task').filter((tid) => Number(tid) !== process.pid);
  execFileSync('perl', ['-e', 'require "syscall.ph"; my ($pid, $sig, @tids) = map { $_ + 0 } @ARGV; syscall(&SYS_tgkill, $pid, $_, $sig) for @tids;', String(process.pid), String(signal), ...threads]);
}

/**
 * Stops every @parcel/watcher subscription of this process the way a stray signal does: its
 * Linux thread ends at an interrupted poll(2) (src/linux/InotifyBackend.cc, "Unable to poll:
 * Interrupted system call"). Installs a handler for SIGWINCH while it runs (an ignored signal
 * interrupts nothing), and signals until `stopped()` is true or 20 tries pass.
 * @returns whether `stopped()` became true.
 */
export async function interruptWatchers(stopped: () => boolean): Promise<boolean> {
  const handled = (): void => undefined;
  process.on('SIGWINCH', handled);
  try {
    const { constants } = await import('node:os');
    for (let i = 0; i < 20 && !stopped(); i++) {
      signalOtherThreads(constants.signals.SIGWINCH);
      for (let waited = 0; waited < 500 && !stopped(); waited += 25) await new Promise((resolve) => setTimeout(resolve, 25));
    }
    return stopped();
  } finally {
    process.off('SIGWINCH', handled);
  }
}
