import { z } from 'zod';

export const LoginRequest = z.object({ idToken: z.string().min(1).max(4096) });
export type LoginRequest = z.infer<typeof LoginRequest>;

export const LoginResponse = z.object({
  accessToken: z.string(),
  tokenType: z.literal('Bearer'),
  expiresIn: z.number().int().positive(),
});
export type LoginResponse = z.infer<typeof LoginResponse>;

export const CurrentUser = z.object({ userId: z.string(), email: z.string() });
export type CurrentUser = z.infer<typeof CurrentUser>;
