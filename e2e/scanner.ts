import type { Page } from '@playwright/test';

/** What a keyboard-wedge scanner types for `code`: STX, the code, GS; then its Enter. */
export async function scan(page: Page, code: string): Promise<void> {
  await page.keyboard.type(`\x02${code}\x1d`);
  await page.keyboard.press('Enter');
}
