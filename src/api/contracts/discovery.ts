import { z } from 'zod';

export const instructionsResponse = z.object({
  version: z.string().meta({ description: 'The Sesame version serving this API.' }),
  baseUrl: z.string().meta({ description: 'The Agent API\'s base address; every path is relative to it.' }),
  openapiUrl: z.string().meta({ description: 'The OpenAPI 3.1 document of this API.' }),
  contentType: z.literal('text/markdown').meta({ description: 'The format of `prompt`.' }),
  prompt: z.string().meta({ description: 'A Markdown operating guide for an AI assistant: discovery, login, typical sequences, errors, limits and security caveats.' }),
});

export const openApiDocumentResponse = z
  .object({
    openapi: z.string().meta({ examples: ['3.1.0'] }),
    info: z.object({ title: z.string(), version: z.string() }).catchall(z.unknown()),
    paths: z.record(z.string(), z.unknown()),
  })
  .catchall(z.unknown())
  .meta({ description: 'An OpenAPI 3.1 document.' });
