#!/usr/bin/env node
// Writes ci/schema/<name>.validate.cjs, each schema's validator as standalone code, after a schema in ci/schema/ or ci/store/schemas.js changed.
//
//   node scripts/gen-validators.js
//
// Commands load those files instead of compiling the schemas with Ajv (about 110 ms a process for the result schema);
// one that no longer matches its schema is not used (they compile instead), and test/schema.test.js fails until this
// has been run.
import { fileURLToPath } from 'node:url';
import { FILE_SCHEMA_NAMES, SCHEMA_NAMES, standaloneSource } from '../ci/schema/compile.js';
import { storeSchemaText } from '../ci/store/schemas.js';
import { writeReplace } from '../ci/store/files.js';
import { scriptArgs } from './args.js';

scriptArgs(import.meta.url, {});

for (const name of SCHEMA_NAMES) {
  writeReplace(fileURLToPath(new URL(`../ci/schema/${name}.validate.cjs`, import.meta.url)), standaloneSource(name, FILE_SCHEMA_NAMES.includes(name) ? undefined : storeSchemaText(name)));
  console.log(`wrote ci/schema/${name}.validate.cjs`);
}
