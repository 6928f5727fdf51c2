// generated from spec/ by `npm run generate` — do not edit
import type { components as Components0, operations as Operations0 } from './2026-02-18.ts';
import type { components as Components1, operations as Operations1 } from './2026-02-19.preview.ts';
import type { components as Components2, operations as Operations2 } from './2026-11-27.ts';
import type { components as Components3, operations as Operations3 } from './2026-11-28.ts';

/** The API versions the spec declares (its `Versions` enum), oldest first. */
export const SPEC_VERSIONS = ['2026-02-18', '2026-02-19.preview', '2026-11-27', '2026-11-28'] as const;

/** One of the versions the spec declares. */
export type SpecVersion = (typeof SPEC_VERSIONS)[number];

/** Each version's generated contract types. */
export interface SpecTypes {
  '2026-02-18': { components: Components0; operations: Operations0 };
  '2026-02-19.preview': { components: Components1; operations: Operations1 };
  '2026-11-27': { components: Components2; operations: Operations2 };
  '2026-11-28': { components: Components3; operations: Operations3 };
}
