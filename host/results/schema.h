/* SPDX-License-Identifier: MIT */
/*
 * The versions of the documents bootmark writes (docs/results.md, "Schemas").
 * Each document says what it is and which version: "bootmark-results/1".  The
 * number changes when a field is removed or renamed, or its meaning, type or
 * unit changes; adding a field is a compatible change and keeps it, so a
 * reader checks the name and the number and ignores keys it does not know.
 */
#ifndef BM_SCHEMA_H
#define BM_SCHEMA_H

#define BM_SCHEMA_RESULTS "bootmark-results/1"  /* OUT/<label>/results.json */
#define BM_SCHEMA_META    "bootmark-meta/1"     /* OUT/<label>/meta.json (run, capture) */
#define BM_SCHEMA_BISECT  "bootmark-bisect/1"   /* OUT/bisect.json */
#define BM_SCHEMA_REPEAT  "bootmark-repeat/1"   /* OUT/repeat.json (--repeat auto) */
#define BM_SCHEMA_EXPORT  "bootmark-export/1"   /* each row of bootmark export */
#define BM_SCHEMA_COMPARE "bootmark-compare/1"  /* bootmark compare --format json */
#define BM_SCHEMA_CI      "bootmark-ci/1"       /* OUT/ci.json (bootmark ci) */
#define BM_SCHEMA_HSERIES "bootmark-history-series/1"   /* history series --format json */
#define BM_SCHEMA_HBOOTS "bootmark-history-boots/1"     /* history boots --format json */
#define BM_SCHEMA_HCHANGES "bootmark-history-changes/1" /* history changes --format json */

#endif
