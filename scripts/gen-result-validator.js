#!/usr/bin/env node
// Writes ci/schema/result.validate.cjs, the result schema's validator as standalone code, after result.schema.json changed.
//
//   node scripts/gen-result-validator.js
//
// Commands load that file instead of compiling the schema with Ajv (about 110 ms a process); one that no longer matches
// the schema is not used (they compile instead), and test/schema.test.js fails until this has been run.
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { standaloneSource } from '../ci/schema/compile.js';
import { writeReplace } from '../ci/store/files.js';
import { scriptArgs } from './args.js';

scriptArgs(import.meta.url, {});

const dir = new URL('../ci/schema/', import.meta.url);
writeReplace(fileURLToPath(new URL('result.validate.cjs', dir)), standaloneSource(readFileSync(new URL('result.schema.json', dir), 'utf8')));
console.log('wrote ci/schema/result.validate.cjs');
