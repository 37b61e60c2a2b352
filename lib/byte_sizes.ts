/** How byte counts are written for people: a limit in a sentence, a file's size in a listing. */

import { MIB } from "./config.ts";

const KIB = 1024;

/** `10 MiB`, `1.5 MiB`, `512 KiB`, `100 bytes`: a limit as a person would write it. */
export function limitText(bytes: number): string {
  const trim = (n: number) => Number.isInteger(n) ? String(n) : n.toFixed(2).replace(/\.?0+$/, "");
  if (bytes >= MIB) return `${trim(bytes / MIB)} MiB`;
  if (bytes >= KIB) return `${trim(bytes / KIB)} KiB`;
  return `${bytes} bytes`;
}

/** 1234 -> "1.2 KB", 20000 -> "20 KB" (list_dir's sizes); bytes below 1 KiB stay exact. */
export function shortSize(size: number): string {
  if (size < KIB) return `${size} B`;
  const units = ["KB", "MB", "GB", "TB"];
  let value = size / KIB;
  let unit = 0;
  while (value >= KIB && unit < units.length - 1) {
    value /= KIB;
    unit++;
  }
  return `${value < 10 ? value.toFixed(1) : Math.round(value)} ${units[unit]}`;
}
