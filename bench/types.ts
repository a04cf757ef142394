import type { Spread } from './lib';

export interface Options {
  /** The sizes (10,000 messages end to end, 64 connections …). */
  readonly full: boolean;
  readonly repeats: number;
  /** Also profile the api-accept path with --cpu-prof. */
  readonly profile: boolean;
  /** Stored-email counts for the scale scenario, ascending. */
  readonly scaleSizes: number[];
  /** Messages per repeat for end-to-end and inbound (default 500; 10,000 with --full). */
  readonly messages: number;
}

export interface Section {
  readonly id: string;
  readonly title: string;
  readonly lines: string[];
  readonly figures: Record<string, Spread>;
}
