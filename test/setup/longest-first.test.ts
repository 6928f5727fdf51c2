import { describe, expect, it } from 'vitest';
import { longestFirst } from './longest-first.ts';

interface File {
  name: string;
  seconds?: number;
  isolated: boolean;
}

const order = (files: File[]) =>
  longestFirst(
    files,
    (f) => f.seconds,
    (f) => f.isolated,
  ).map((f) => f.name);

describe('longestFirst, the test files’ start order', () => {
  it('starts the files CI measured slowest first, longest first, whichever project they are in', () => {
    const files: File[] = [
      { name: 'short', seconds: 10, isolated: true },
      { name: 'unknown', isolated: true },
      { name: 'long shared', seconds: 50, isolated: false },
      { name: 'longest', seconds: 90, isolated: true },
    ];
    expect(order(files)).toEqual(['longest', 'long shared', 'short', 'unknown']);
  });

  it('keeps the other files in the order given, those that share a process after the isolated ones, together', () => {
    // A worker reuses its process only when the next file in the queue shares one too.
    const files: File[] = [
      { name: 'shared a', isolated: false },
      { name: 'isolated a', isolated: true },
      { name: 'shared b', isolated: false },
      { name: 'isolated b', isolated: true },
      { name: 'known', seconds: 5, isolated: true },
    ];
    expect(order(files)).toEqual(['known', 'isolated a', 'isolated b', 'shared a', 'shared b']);
  });
});
