// eslint rule `brabo/import-boundaries`: the layering of issue 11, checked on every import,
// export-from and dynamic import() with a literal specifier:
//   - src/policy/ (pure) imports only zod, shell-quote and its own files;
//   - gateway/, broker/ and runner-protocol/ import nothing from src/;
//   - everything else reaches src/policy only through src/policy/index.ts (tests and benchmarks
//     of the policy itself, test/policy/ and bench/policy*, may reach inside).
import path from 'node:path';

const POLICY_PACKAGES = new Set(['zod', 'shell-quote']);

function within(file, dir) {
  const rel = path.relative(dir, file);
  return rel === '' || (!rel.startsWith('..') && !path.isAbsolute(rel));
}

export default {
  meta: {
    type: 'problem',
    docs: { description: 'layer boundaries between src/policy, the protocol packages and the rest' },
    schema: [
      { type: 'object', properties: { root: { type: 'string' } }, required: ['root'], additionalProperties: false },
    ],
    messages: {
      policyOnly: 'src/policy is pure: it imports only zod, shell-quote and its own files, not "{{spec}}"',
      noSrc: '{{layer}} imports nothing from src/ ("{{spec}}"): it is a package of its own',
      policyIndex: 'reach the policy through its index (src/policy/index.ts), not "{{spec}}"',
    },
  },
  create(context) {
    const root = context.options[0].root;
    const file = context.filename;
    const dirs = {
      policy: path.join(root, 'src/policy'),
      src: path.join(root, 'src'),
      policyIndex: path.join(root, 'src/policy/index.ts'),
    };
    const inPolicy = within(file, dirs.policy);
    const layer = ['gateway', 'broker', 'runner-protocol'].find((name) => within(file, path.join(root, name)));
    const policyOwnTests =
      within(file, path.join(root, 'test/policy')) || /^bench\/policy/.test(path.relative(root, file));

    function check(node, spec) {
      if (typeof spec !== 'string') return;
      const relative = spec.startsWith('.');
      const target = relative ? path.resolve(path.dirname(file), spec) : null;
      if (inPolicy) {
        const allowed = relative ? within(target, dirs.policy) : POLICY_PACKAGES.has(spec);
        if (!allowed) context.report({ node, messageId: 'policyOnly', data: { spec } });
        return;
      }
      if (target === null) return;
      if (layer && within(target, dirs.src)) {
        context.report({ node, messageId: 'noSrc', data: { spec, layer: `${layer}/` } });
        return;
      }
      if (!policyOwnTests && within(target, dirs.policy) && target !== dirs.policyIndex) {
        context.report({ node, messageId: 'policyIndex', data: { spec } });
      }
    }

    return {
      ImportDeclaration: (node) => check(node.source, node.source.value),
      ExportNamedDeclaration: (node) => node.source && check(node.source, node.source.value),
      ExportAllDeclaration: (node) => check(node.source, node.source.value),
      ImportExpression: (node) => node.source.type === 'Literal' && check(node.source, node.source.value),
    };
  },
};
