#!/usr/bin/env node
// Writes ci/t-dist.bundle.cjs, stdlib's Student's t cdf and quantile bundled into one file, after those packages changed.
//
//   node scripts/gen-t-dist.js
//
// The change point search loads that file instead of the packages (410 modules, over 100 ms of every process that
// builds the site); test/changepoints.test.js fails until this has been run after the packages were updated.
import { fileURLToPath } from 'node:url';
import { T_DIST_BUNDLE, tDistBundleSource } from '../ci/t-dist.js';
import { writeReplace } from '../ci/store/files.js';
import { scriptArgs } from './args.js';

scriptArgs(import.meta.url, {});

writeReplace(fileURLToPath(new URL(`../ci/${T_DIST_BUNDLE}`, import.meta.url)), await tDistBundleSource());
console.log(`wrote ci/${T_DIST_BUNDLE}`);
