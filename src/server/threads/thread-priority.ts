/**
 * Background threads yield the CPU to the thread that answers visitors. On Linux a worker thread
 * is a kernel task named after its Worker (the first 15 characters), and setpriority() given a
 * task's id changes that thread alone: a mail fan-out to thousands of subscribers then takes
 * whatever CPU visitors leave, instead of sharing it evenly with them. Elsewhere nothing changes.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { setPriority } from 'node:os';

/** Linux's limit on a task's name, terminating NUL included. */
const TASK_NAME_LENGTH = 15;

/** The ids of this process's tasks named `name` (as the kernel keeps it, cut to 15 characters). */
export function tasksNamed(name: string, taskDir = '/proc/self/task'): number[] {
  const wanted = name.slice(0, TASK_NAME_LENGTH);
  let tasks: string[];
  try {
    tasks = readdirSync(taskDir);
  } catch {
    return [];
  }
  return tasks.filter((task) => {
    try {
      return readFileSync(`${taskDir}/${task}/comm`, 'utf8').trim() === wanted;
    } catch {
      return false;
    }
  }).map(Number);
}

/** Lowers the named thread's priority to `niceness` (0 normal, 19 lowest); returns how many tasks changed. */
export function lowerThreadPriority(name: string, niceness: number): number {
  let changed = 0;
  for (const task of tasksNamed(name)) {
    try {
      setPriority(task, niceness);
      changed += 1;
    } catch {
      // Not permitted or gone: the thread keeps the normal priority.
    }
  }
  return changed;
}
