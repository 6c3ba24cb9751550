/**
 * The request schemas of the Skills extension's methods (SEP-2640), apart from their handlers
 * so that the params check (params.ts) can use them without an import cycle. Params may
 * carry `_meta` and, as in the base protocol's requests, other keys are let through.
 */
import { z } from 'zod';

const CursorParams = z.looseObject({ _meta: z.looseObject({}).optional(), cursor: z.string().optional() });
const UriParams = z.looseObject({ _meta: z.looseObject({}).optional(), uri: z.string() });

/** `skills/list` (SEP-2640, "Enumeration via skills/list"): `params` optional, with an optional `cursor`. */
export const ListSkillsRequestSchema = z.object({ method: z.literal('skills/list'), params: CursorParams.optional() });
/** `skills/get` (SEP-2640, "Retrieval via skills/get"): `params.uri` required. */
export const GetSkillRequestSchema = z.object({ method: z.literal('skills/get'), params: UriParams });
/** `resources/directory/read` (SEP-2640, "resources/directory/read"): `params.uri` required, optional `cursor`. */
export const ReadDirectoryRequestSchema = z.object({ method: z.literal('resources/directory/read'), params: UriParams.extend({ cursor: z.string().optional() }) });

/** The three requests by method, for the params check (params.ts). */
export const SKILLS_REQUEST_SCHEMAS: ReadonlyMap<string, z.ZodType> = new Map<string, z.ZodType>([
  ['skills/list', ListSkillsRequestSchema],
  ['skills/get', GetSkillRequestSchema],
  ['resources/directory/read', ReadDirectoryRequestSchema],
]);

