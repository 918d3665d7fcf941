import type { APIRequestContext, Page } from '@playwright/test';
import { expect } from './fixtures';

/**
 * Setting the stage through the API, as a script would, so that a browser test spends its time on
 * the screens it is about: the first-run setup, a login, and calls with that login's token.
 */
export interface Seeded {
  orgId: string;
  token: string;
  /** A call to `/orgs/{orgId}{path}` that must succeed; answers the parsed body. */
  call(method: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE', path: string, data?: unknown): Promise<any>;
}

export async function seedOrganization(request: APIRequestContext, owner: { orgName: string; name: string; email: string; password: string }): Promise<Seeded> {
  // On a file's shared server an earlier test may have set up already: then this logs in.
  await request.post('/setup', { data: owner });
  const login = await request.post('/auth/login', { data: { email: owner.email, password: owner.password } });
  expect(login.ok(), `login: ${await login.text()}`).toBe(true);
  const body = (await login.json()) as { accessToken: string; orgs: { id: string }[] };
  const orgId = body.orgs[0]?.id as string;
  return { orgId, token: body.accessToken, call: orgApi(request, orgId, body.accessToken) };
}

/**
 * Calls into one organization with a token, through `request` — a test's own request context: one
 * kept from an earlier test is closed when that test ends.
 */
export function orgApi(request: APIRequestContext, orgId: string, token: string): Seeded['call'] {
  return async (method, path, data) => {
    const response = await request.fetch(`/orgs/${orgId}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}` },
      ...(data === undefined ? {} : { data }),
    });
    expect(response.ok(), `${method} ${path}: ${await response.text()}`).toBe(true);
    return response.json();
  };
}

/** Signs in on the app's own form and waits for the main navigation. */
export async function signIn(page: Page, email: string, password: string): Promise<void> {
  await page.goto('/');
  await page.getByLabel('Email').fill(email);
  await page.getByLabel('Password').fill(password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await expect(page.getByRole('navigation', { name: 'Main' })).toBeVisible();
}
