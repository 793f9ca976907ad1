/**
 * Answers are written by fast-json-stringify, compiled once per route and status from the zod
 * response schema's JSON Schema. It writes only the properties the schema declares (nothing
 * else on an object can leak into an answer) and costs about 1 µs per gift, against 7.5 µs for
 * zod's encode plus JSON.stringify. Response types are checked by TypeScript and by the tests,
 * which compare every answer with the contract's schemas.
 */
import fastJson, { type AnySchema } from 'fast-json-stringify';
import { type FastifySerializerCompiler } from 'fastify/types/schema';
import { z } from 'zod';
import { type $ZodType } from 'zod/v4/core';

/** Any zod schema, classic or mini: the contract's are mini (shared/api/contract). */
export const responseSerializerCompiler: FastifySerializerCompiler<$ZodType> = ({ schema }) =>
  fastJson(z.toJSONSchema(schema, { target: 'draft-7', io: 'output' }) as AnySchema);
