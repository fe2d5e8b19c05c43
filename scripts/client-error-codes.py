#!/usr/bin/env python3
"""Writes ChidianClient/Sources/ChidianClient/ChidianError+Code.swift from the ProblemCode schema of the committed
openapi.json: one enum case per code the API answers. Run after `chidian openapi --output openapi.json` when the
document gains codes (ChidianErrorTests in the client package fails until then), then `make lint`."""
import json
import os

root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
doc = json.load(open(os.path.join(root, 'openapi.json'), encoding='utf-8'))
codes = doc['components']['schemas']['ProblemCode']['enum']
def camel(s):
    p = s.split('_'); return p[0] + ''.join(x.capitalize() for x in p[1:])
out = []
out.append('''extension ChidianError {
    /// The contract's `code`, what clients branch on: every code the document's `ProblemCode` schema lists, and
    /// `.unknown` for one this build does not know (a newer server), kept as sent.
    ///
    /// Written by scripts/client-error-codes.py from openapi.json; `ChidianErrorTests` fails when the document
    /// lists a code this enum lacks.
    public enum Code: Hashable, Sendable {''')
for c in codes: out.append(f'        case {camel(c)}')
out.append('        case unknown(String)')
out.append('')
out.append('        /// Every known code.')
out.append('        public static let allKnown: [Code] = [')
line='           '
items=[]
for c in codes:
    items.append('.'+camel(c)+',')
cur='           '
for it in items:
    if len(cur)+1+len(it) > 116:
        out.append(cur); cur='           '
    cur+=' '+it
out.append(cur)
out.append('        ]')
out.append('')
out.append('        private static let byRawValue = Dictionary(uniqueKeysWithValues: allKnown.map { ($0.rawValue, $0) })')
out.append('')
out.append('        public init(rawValue: String) { self = Self.byRawValue[rawValue] ?? .unknown(rawValue) }')
out.append('')
out.append('        /// The code as the server sends it (snake_case).')
out.append('        public var rawValue: String {')
out.append('            switch self {')
for c in codes: out.append(f'            case .{camel(c)}: "{c}"')
out.append('            case .unknown(let code): code')
out.append('            }')
out.append('        }')
out.append('    }')
out.append('}')
open(os.path.join(root, 'ChidianClient/Sources/ChidianClient/ChidianError+Code.swift'), 'w', encoding='utf-8').write('\n'.join(out)+'\n')
print(f'{len(codes)} codes')
