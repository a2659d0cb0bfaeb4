import type { Express } from 'express';

/** The quickstart's app (app.mjs), typed for the test that runs it against Sesame. */
export function createApp(options: { issuer: string; clientId: string; clientSecret: string; baseUrl: string; sessionSecret: string }): Promise<Express>;
