import { z } from 'zod';
import { apiErrorBodySchema } from 'shared/api/contract';

export const healthSchema = z.object({ status: z.literal('ok') });

export const errorResponses = { '4xx': apiErrorBodySchema, '5xx': apiErrorBodySchema } as const;
