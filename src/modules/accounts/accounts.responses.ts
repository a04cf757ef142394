import { z } from 'zod';
import { timestamp } from '../../http/response-schema';

const accountStatus = z.enum(['ACTIVE', 'SUSPENDED']);
const role = z.enum(['user', 'operator']);

/** accounts.usecases.ts SessionResult */
export const SessionView = z
  .object({
    token: z.string(),
    expiresAt: timestamp,
    user: z.object({ id: z.string(), email: z.string(), name: z.string() }),
  })
  .meta({ id: 'Session' });

/** accounts.usecases.ts accountView */
export const MeView = z
  .object({ id: z.string(), email: z.string(), name: z.string(), status: accountStatus, role })
  .meta({ id: 'Me' });

/** GET /v1/auth/options: what the sign-in screen needs before anyone signs in. */
export const AuthOptionsView = z
  .object({
    origin: z
      .string()
      .describe(
        "BASE_URL's origin (scheme, host, port): the one origin the dashboard's state changes are accepted from.",
      ),
  })
  .meta({ id: 'AuthOptions' });

const nullableInt = z.number().int().nullable();

/** What the operator routes answer (operator.routes.ts). */
export const OperatorAccountView = z
  .object({
    id: z.string(),
    email: z.string(),
    name: z.string(),
    status: accountStatus,
    role,
    createdAt: timestamp,
    suspendedAt: timestamp.nullable(),
    suspensionReason: z.string().nullable(),
    emailsPerHour: nullableInt,
    emailsPerDay: nullableInt,
    ownEmailsPerHour: nullableInt,
    ownEmailsPerDay: nullableInt,
    stoppedEmails: z.number().int().optional().describe('Only on suspend: queued messages stopped.'),
  })
  .meta({ id: 'OperatorAccount' });
