/**
 * What an SBOM says about its own making, in both formats (issue 55, point 3): the tool that
 * wrote it, when, and its unique serial. Given by the caller, so that the writers stay pure and a
 * test can fix them.
 */
import { randomUUID } from 'node:crypto';

/** The making of one SBOM. */
export interface SbomMeta {
  /** The CLI that wrote it. */
  tool: { name: string; version: string };
  /** When it was written. */
  created: Date;
  /** A random UUID (RFC 9562, version 4): CycloneDX's `serialNumber` and SPDX's document namespace. */
  serial: string;
}

/** The meta of an SBOM written now by `loadout` at `version`, with a fresh serial. */
export function sbomMetaNow(version: string): SbomMeta {
  return { tool: { name: 'loadout', version }, created: new Date(), serial: randomUUID() };
}

/** `date` as ISO 8601 UTC to the second (`2026-11-28T12:00:00Z`), as SPDX 2.3 clause 6.9 writes `Created` and CycloneDX's `date-time` accepts. */
export function secondsUtc(date: Date): string {
  return `${date.toISOString().slice(0, 19)}Z`;
}
