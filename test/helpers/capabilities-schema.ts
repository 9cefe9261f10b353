import assert from 'node:assert/strict';
import { Ajv2020 } from 'ajv/dist/2020.js';

const STATUS = { enum: ['supported', 'fixed', 'unsupported', 'unknown'] };
const range = {
  type: 'object',
  additionalProperties: false,
  required: ['minimum', 'maximum', 'step'],
  properties: { minimum: { type: 'number' }, maximum: { type: 'number' }, step: { type: 'number' } },
};
const voice = {
  type: 'object',
  additionalProperties: false,
  required: ['id', 'name', 'source', 'presentation', 'languages', 'accents'],
  properties: {
    id: { type: 'string' },
    name: { type: 'string' },
    source: { enum: ['standard', 'account'] },
    presentation: { enum: ['male', 'female', 'neutral', 'unknown'] },
    languages: { type: 'array', items: { type: 'string' } },
    accents: { type: 'array', items: { type: 'string' } },
  },
};
const member = (item: object) => ({
  type: 'object',
  additionalProperties: false,
  required: ['status'],
  properties: { status: STATUS, reason: { type: 'string' }, choices: { type: 'array', items: item }, value: item, range },
});

/** The persona-capabilities object exactly as the interface describes it, written independently of the server's schemas. */
export const PERSONA_CAPABILITIES_SCHEMA = {
  type: 'object',
  additionalProperties: false,
  required: ['voices', 'language', 'accent', 'emotion', 'speed', 'speechVolume'],
  properties: {
    voices: member(voice),
    language: member({ type: 'string' }),
    accent: member({ type: 'string' }),
    emotion: member({ type: 'string' }),
    speed: member({ type: 'number' }),
    speechVolume: member({ type: 'number' }),
  },
};

const validate = new Ajv2020({ strict: true, allErrors: true }).compile(PERSONA_CAPABILITIES_SCHEMA);

/** Asserts a capabilities body against the strict schema (no extra members anywhere). */
export function assertCapabilitiesShape(body: unknown): void {
  assert.ok(validate(body), `capabilities response breaks the strict schema: ${JSON.stringify(validate.errors)}`);
}
