import { z } from 'zod';
import { timestamp } from '../../http/response-schema';

/** branding.usecases.ts BrandingView */
export const BrandingResponse = z
  .object({
    logo: z
      .object({ url: z.string(), contentType: z.string(), size: z.number().int(), updatedAt: timestamp })
      .nullable(),
    footer: z.object({ html: z.string().nullable(), text: z.string().nullable() }),
  })
  .meta({ id: 'Branding' });
