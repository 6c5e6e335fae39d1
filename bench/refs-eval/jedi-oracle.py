"""The refs eval's Python oracle: jedi's get_references, one request per stdin line.

Run by bench/refs-eval/main.ts only (python3 with jedi, e.g. Debian's python3-jedi); never
shipped. Each line is JSON {"path", "line", "name"} (path relative to the root given as the
first argument); each answer is one JSON line {"files": [root-relative paths]} or {"files": null}
when the name is not on its line or jedi fails.
"""
import json
import os
import re
import sys

import jedi

root = os.path.realpath(sys.argv[1])
# A src layout's packages are importable by their name, as an installed package would be.
extra = [os.path.join(root, "src")] if os.path.isdir(os.path.join(root, "src")) else []
project = jedi.Project(root, added_sys_path=extra)
for raw in sys.stdin:
    ask = json.loads(raw)
    files = None
    try:
        path = os.path.join(root, ask["path"])
        with open(path, encoding="utf-8") as f:
            lines = f.read().split("\n")
        m = re.search(r"(?<![\w])" + re.escape(ask["name"]) + r"(?![\w])", lines[ask["line"] - 1])
        if m is not None:
            script = jedi.Script(path=path, project=project)
            out = set()
            for r in script.get_references(line=ask["line"], column=m.start()):
                if r.module_path is None:
                    continue
                rel = os.path.relpath(os.path.realpath(str(r.module_path)), root)
                if not rel.startswith("..") and "site-packages" not in rel:
                    out.add(rel.replace(os.sep, "/"))
            files = sorted(out)
    except Exception:  # noqa: BLE001 - a failure is reported as no answer for this symbol
        files = None
    sys.stdout.write(json.dumps({"files": files}) + "\n")
    sys.stdout.flush()
