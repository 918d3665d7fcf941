import { z } from 'zod';
import { email, timestamp } from './common';
import { emailPlaceholders, unknownPlaceholders } from '../emailTemplates';

/** A template part with only known placeholders: an unknown one would reach customers as empty text. */
const templatePart = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .superRefine((value, ctx) => {
      const unknown = unknownPlaceholders(value);
      if (unknown.length > 0) {
        ctx.addIssue({
          code: 'custom',
          message: `Unknown placeholder${unknown.length > 1 ? 's' : ''} ${unknown.map((name) => `{{${name}}}`).join(', ')}; use only ${emailPlaceholders.map((name) => `{{${name}}}`).join(', ')}`,
        });
      }
    });

export const emailTemplateSchema = z.strictObject({ subject: templatePart(200), text: templatePart(10_000) });

const perLanguage = z.strictObject({ en: emailTemplateSchema, da: emailTemplateSchema });
/** What each kind and language really sends: the organization's own template, or the default. */
export const emailTemplatesSchema = z.strictObject({ dispatched: perLanguage, return_label: perLanguage });

const perLanguageEdit = z.strictObject({ en: emailTemplateSchema.nullable().optional(), da: emailTemplateSchema.nullable().optional() });
/** Only the templates given change; null puts one back to the default. */
export const emailTemplatesEdit = z.strictObject({ dispatched: perLanguageEdit.optional(), return_label: perLanguageEdit.optional() });
export type EmailTemplatesEdit = z.infer<typeof emailTemplatesEdit>;

/**
 * An organization's SMTP server for customer e-mails (issue 22). The password is sealed at rest and
 * masked in reads like carrier secrets; a PUT without `password` keeps the stored one.
 */
export const emailSettingsSchema = z.strictObject({
  host: z.string(),
  port: z.number().int(),
  secure: z.boolean().describe('true: TLS from the first byte (usually port 465); false: STARTTLS when the server offers it (587, 25)'),
  username: z.string().nullable(),
  /** Masked (`••••` and, for a long one, its last four characters); null when none is stored. */
  password: z.string().nullable(),
  fromAddress: z.string(),
  templates: emailTemplatesSchema,
  createdAt: timestamp(),
  updatedAt: timestamp(),
});
export type EmailSettings = z.infer<typeof emailSettingsSchema>;

export const emailSettingsBody = z.strictObject({
  host: z
    .string()
    .trim()
    .min(1, 'Enter the SMTP server name')
    .max(253)
    .regex(/^[A-Za-z0-9.-]+$|^\[?[0-9a-fA-F:.]+\]?$/, 'Only the server name, such as smtp.example.com (no scheme, no port)'),
  port: z.number().int().min(1).max(65535),
  secure: z.boolean(),
  username: z.string().max(320).nullable().optional(),
  password: z.string().min(1).max(1000).nullable().optional().describe('Left out (or sent back masked as read): the stored password is kept; null removes it'),
  fromAddress: email().describe('The sender customers see, e.g. shop@example.com'),
  templates: emailTemplatesEdit.optional().describe('Templates to change (per kind and language); null puts one back to the default'),
});
export type EmailSettingsInput = z.infer<typeof emailSettingsBody>;

export const emailTestBody = z.strictObject({
  to: email().describe('Where the test e-mail goes'),
});

export const emailTestResultSchema = z.strictObject({
  ok: z.boolean(),
  /** What happened, in plain words (connection refused, login refused, TLS problem, …). */
  message: z.string(),
  durationMs: z.number().int(),
});
export type EmailTestResult = z.infer<typeof emailTestResultSchema>;
