/**
 * Rooms in a pack: each file names its ratified room, and files of a room the task names are
 * boosted (NAMED_ROOM_BOOST) and re-ranked. Without a ratified skeleton the files are left as
 * they were, with no `room` field.
 */
import { splitWords } from './words.js';
import { NAMED_ROOM_BOOST } from './weights.js';

export function withRooms<F extends { path: string; score: number }>(files: F[], roomOf: ReadonlyMap<string, string>, task: string): (F & { room?: string })[] {
  if (roomOf.size === 0) return files;
  const taskWords = new Set(splitWords(task));
  const named = (room: string) => {
    const words = splitWords(room);
    return words.length > 0 && words.every((w) => taskWords.has(w));
  };
  const round = (n: number) => Math.round(n * 1000) / 1000;
  return files
    .map((f) => {
      const room = roomOf.get(f.path);
      if (room === undefined) return f;
      return { ...f, room, score: named(room) ? round(f.score * NAMED_ROOM_BOOST) : f.score };
    })
    .sort((a, b) => b.score - a.score);
}
