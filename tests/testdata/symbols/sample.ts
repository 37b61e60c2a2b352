// sample.ts: every TypeScript symbol kind. Widget in a comment
import { readFile } from "node:fs";

export const LIMIT = 10;
let mutable = "Widget in a string";

export interface Shape {
  area(): number;
  name: string;
}

export type Id = string | number;

export enum Direction {
  Up,
  Down = 2,
}

export namespace Geometry {
  export function distance(a: number, b: number): number {
    return Math.abs(a - b);
  }
}

export abstract class Base {
  abstract describe(): string;
}

export class Widget extends Base implements Shape {
  name = "widget";
  #secret = 1;
  constructor(private size: number) {
    super();
  }
  area(): number {
    return this.size * this.size;
  }
  describe(): string {
    const helper = () => this.name;
    return helper();
  }
}

export function makeWidget(size: number): Widget {
  function inner() {
    return new Widget(size);
  }
  return inner();
}

export const arrow = (x: number) => x * 2;
