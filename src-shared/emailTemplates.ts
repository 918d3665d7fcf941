/**
 * Customer e-mail templates (issue 22): one subject and text per kind and language, with
 * `{{placeholders}}`. Shared, so the settings screen shows the same defaults and placeholder list
 * the server renders with.
 */
export const emailKinds = ['dispatched', 'return_label'] as const;
export type EmailKind = (typeof emailKinds)[number];

export const emailLanguages = ['en', 'da'] as const;
export type EmailLanguage = (typeof emailLanguages)[number];

export const emailPlaceholders = ['receiverName', 'orderNumber', 'reference', 'carrierName', 'trackingNumber', 'trackingUrl', 'organizationName'] as const;
export type EmailPlaceholder = (typeof emailPlaceholders)[number];

export interface EmailTemplate {
  subject: string;
  text: string;
}

export type EmailTemplates = Record<EmailKind, Record<EmailLanguage, EmailTemplate>>;

export const defaultEmailTemplates: EmailTemplates = {
  dispatched: {
    en: {
      subject: 'Your order {{orderNumber}} is on its way',
      text:
        'Hello {{receiverName}},\n\n' +
        'Your order {{orderNumber}} from {{organizationName}} has been handed to {{carrierName}} and is on its way to you.\n\n' +
        'Tracking number: {{trackingNumber}}\n' +
        'Follow your parcel here: {{trackingUrl}}\n\n' +
        'Kind regards,\n{{organizationName}}',
    },
    da: {
      subject: 'Din ordre {{orderNumber}} er på vej',
      text:
        'Hej {{receiverName}},\n\n' +
        'Din ordre {{orderNumber}} fra {{organizationName}} er afleveret til {{carrierName}} og er nu på vej til dig.\n\n' +
        'Trackingnummer: {{trackingNumber}}\n' +
        'Følg din pakke her: {{trackingUrl}}\n\n' +
        'Venlig hilsen\n{{organizationName}}',
    },
  },
  return_label: {
    en: {
      subject: 'Your return label for order {{orderNumber}}',
      text:
        'Hello {{receiverName}},\n\n' +
        'Your return label for order {{orderNumber}} is attached. Print it, fix it to the parcel and hand the parcel in to {{carrierName}}.\n\n' +
        'Tracking number: {{trackingNumber}}\n' +
        'Follow your return here: {{trackingUrl}}\n\n' +
        'Kind regards,\n{{organizationName}}',
    },
    da: {
      subject: 'Din returlabel til ordre {{orderNumber}}',
      text:
        'Hej {{receiverName}},\n\n' +
        'Din returlabel til ordre {{orderNumber}} er vedhæftet. Print den, sæt den på pakken, og aflever pakken hos {{carrierName}}.\n\n' +
        'Trackingnummer: {{trackingNumber}}\n' +
        'Følg din returforsendelse her: {{trackingUrl}}\n\n' +
        'Venlig hilsen\n{{organizationName}}',
    },
  },
};

const placeholderPattern = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** Placeholders in `template` that are not on the list (each once, in order of appearance). */
export function unknownPlaceholders(template: string): string[] {
  const known = new Set<string>(emailPlaceholders);
  const unknown: string[] = [];
  for (const match of template.matchAll(placeholderPattern)) {
    const name = match[1] ?? '';
    if (!known.has(name) && !unknown.includes(name)) unknown.push(name);
  }
  return unknown;
}

/** The template with each placeholder replaced by its value (empty when the shipment has none). */
export function renderTemplate(template: string, values: Partial<Record<EmailPlaceholder, string | null>>): string {
  return template.replace(placeholderPattern, (_match, name: string) => values[name as EmailPlaceholder] ?? '');
}

/** The stored templates over the defaults: what each kind and language really sends. */
export function effectiveTemplates(stored: unknown): EmailTemplates {
  const out = structuredClone(defaultEmailTemplates);
  if (typeof stored !== 'object' || stored === null) return out;
  for (const kind of emailKinds) {
    const perKind = (stored as Record<string, unknown>)[kind];
    if (typeof perKind !== 'object' || perKind === null) continue;
    for (const language of emailLanguages) {
      const template = (perKind as Record<string, unknown>)[language] as Partial<EmailTemplate> | undefined;
      if (template && typeof template.subject === 'string' && typeof template.text === 'string') {
        out[kind][language] = { subject: template.subject, text: template.text };
      }
    }
  }
  return out;
}
