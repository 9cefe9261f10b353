import type { ValidationIssue } from '@svc/contract';
import type { z } from 'zod';
import { AppError } from './errors.js';

/** zod issues in the contract's `details.issues` form. */
export function toIssues(error: z.ZodError): ValidationIssue[] {
  return error.issues.map((issue) => {
    const path = issue.path.map(String).join('.');
    if (issue.code === 'unrecognized_keys') {
      const prefix = path ? `${path}.` : '';
      return { path: path, message: `unknown field(s): ${issue.keys.map((k) => prefix + k).join(', ')}` };
    }
    return { path, message: issue.message };
  });
}

/** Parses path parameters, a query or request headers; a failure is 400 `invalid_request`. */
export function parseRequestPart<S extends z.ZodType>(schema: S, value: unknown, where: 'path' | 'query' | 'header'): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = toIssues(result.error);
    throw new AppError('invalid_request', `Invalid ${where} parameters: ${issues.map((i) => `${i.path || where}: ${i.message}`).join('; ')}`, { issues });
  }
  return result.data;
}

/** Parses a JSON body; a failure is 422 `validation_failed` with `details.issues`. */
export function parseBody<S extends z.ZodType>(schema: S, value: unknown): z.output<S> {
  const result = schema.safeParse(value);
  if (!result.success) {
    const issues = toIssues(result.error);
    throw new AppError('validation_failed', `The body is not valid: ${issues.map((i) => `${i.path || 'body'}: ${i.message}`).join('; ')}`, { issues });
  }
  return result.data;
}
