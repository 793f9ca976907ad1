/** The answers every route shares: the one error body (shared/api/contract) and health's. */
import { z } from 'zod';
import { apiErrorBodySchema } from 'shared/api/contract';

export const healthSchema = z.object({ status: z.literal('ok') });

/** Every error status a route may answer, with the one error body. */
export const errorResponses = { '4xx': apiErrorBodySchema, '5xx': apiErrorBodySchema } as const;
