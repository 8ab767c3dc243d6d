// Issue 9 A.3: writers the engine does not know. `git log --output=permissions.json` rewrote the
// deny list. Any argument or option value naming a protected path (any spelling, glob, `./`,
// `//` or case variant) makes a command that is not read-only ask; read-only commands stay.
import { ISSUE9, ISSUE9_AUTO, NEVER_AUTO, ask, auto, c, runCases } from './adversarial-harness.ts';

const PROTECTED = ask('protected_file_write');

const ATTACKS = [
  'git log --output=permissions.json',
  'git log --output permissions.json',
  'git diff --output=.git/config',
  'git show --output=./permissions.json',
  'git log --output=.//PERMISSIONS.JSON',
  'git log --output=src/../permissions.json',
  'git diff --output=.git/hook?/pre-commit',
  'git log -p --output=.GIT/Config',
  'git show HEAD --output=./.git//hooks/post-checkout',
  'git diff --output=/projects/app/permissions.json',
  'git log --output=perm*.json',
];

runCases(
  'RN-418/issue 9 A.3 git --output naming a protected path, manual',
  ISSUE9,
  ATTACKS.map((command) => c(command, PROTECTED)),
);
runCases(
  'RN-418/issue 9 A.3 git --output naming a protected path, auto mode',
  ISSUE9_AUTO,
  ATTACKS.map((command) => c(command, PROTECTED)),
);

runCases('any other program that is not read-only, naming a protected path (auto mode)', ISSUE9_AUTO, [
  c('git format-patch -o .git/hooks HEAD~1', PROTECTED),
  c('python3 tool.py --out=.git/config', PROTECTED),
  c('python3 tool.py --out .git/config', PROTECTED),
  c('node build.js -o./permissions.json', PROTECTED),
  c('make DEST=.git/hooks', PROTECTED),
  c('tar -xf a.tar -C .git', PROTECTED),
  c('unzip -o a.zip -d .git/hooks', PROTECTED),
  c('docker run -v ./.git/hooks:/h img', PROTECTED),
  c('rsync -a evil/ .git/hooks/', PROTECTED),
  c('sort -o permissions.json x', PROTECTED),
  c('tree -o .git/config', PROTECTED),
  c('find . -name permissions.json -delete', PROTECTED),
  c('npm pack --pack-destination .git/hooks', PROTECTED),
  c('git --git-dir=.git log', PROTECTED, { note: 'global options make git not read-only' }),
  c('timeout 5 cat permissions.json > x', PROTECTED, { note: 'a wrapper is not read-only' }),
  c(`python3 -c "open('.git/config','a').write('x')"`, PROTECTED, { note: 'code naming the path' }),
  c(`node -e "require('fs').writeFileSync('permissions.json','{}')"`, PROTECTED),
  c(`ruby -e 'File.write(".git//hooks/pre-commit", "x")'`, PROTECTED),
  c('rsync --log-file=.git/config a b', PROTECTED, { note: 'a writing option of a copier' }),
  c('cp --backup=numbered --suffix=x a .git/config', PROTECTED),
  c("sed -n 'w .git/config' f", ask('unsafe_shell_construct'), { note: "sed's w command" }),
  c("sed 's/a/b/w permissions.json' f", ask('unsafe_shell_construct'), { note: 'the w flag of s///' }),
  c("sed -e 'p;w .git/hooks/post-merge' f", ask('unsafe_shell_construct')),
  c("sed 'r ../secret' f", ask('unsafe_shell_construct')),
  c("sed '1e id' f", ask('unsafe_shell_construct')),
  c("sed 's/a/b/e' f", ask('unsafe_shell_construct')),
  c('sed -f script.sed f', ask('unsafe_shell_construct')),
  c(`awk '{print > ".git/config"}' f`, ask('unsafe_shell_construct')),
  c(`awk 'BEGIN{system("id")}'`, ask('unsafe_shell_construct')),
  c(`awk '{ print | "sh" }' f`, ask('unsafe_shell_construct')),
  c(`awk 'BEGIN{getline < "../secret"}'`, ask('unsafe_shell_construct')),
  c('echo evil > .git/commondir', PROTECTED),
  c('mv x .git/commondir', PROTECTED),
  c('mkdir -p .git/modules/a', PROTECTED),
  c('echo x > .git/config.worktree', PROTECTED),
  c('cp x .git/worktrees/a/config', PROTECTED),
  c('sed -i s/a/b/ [[:alpha:]]ermissions.json', PROTECTED),
  c('echo x > .g[[:lower:]]t/config', PROTECTED),
  c('cat x > permissions[[:punct:]]json', PROTECTED),
  c('chmod -R 777 .git', PROTECTED, { note: 'a recursive change of a folder holding protected paths' }),
  c('chmod 000 .git', PROTECTED),
  c('chmod -R a-w .', PROTECTED),
  c('chown -R me /projects', PROTECTED),
  c('rm -rf .', PROTECTED),
]);

runCases('read-only commands may name protected paths (auto mode)', ISSUE9_AUTO, [
  c('cat permissions.json', auto()),
  c('cat .git/config', auto()),
  c('grep -rn fsmonitor .git/config', auto()),
  c('ls -la .git/hooks', auto()),
  c('head -n 5 permissions.json', auto()),
  c('wc -l permissions.json', auto()),
  c('git log -- permissions.json', auto()),
  c('git diff permissions.json', auto()),
  c('git show HEAD:permissions.json', auto()),
  c('diff permissions.json permissions.json.bak', auto()),
  c('stat .git/config', auto()),
  c('find . -path ./.git -prune -o -name "*.ts" -print', auto()),
  c('echo permissions.json', auto()),
  c('cp .git/config backup.cfg', auto(), { note: 'a known writer: its target is checked exactly' }),
  c('sort permissions.json', auto()),
]);

runCases('read-only commands in the issue 9 setup', ISSUE9, [
  c('cat permissions.json', auto('permissions_allow')),
  c('git log -p -- permissions.json', auto('permissions_allow')),
  c('git diff .git/config', auto('permissions_allow')),
  c('ls .git/hooks', auto('permissions_allow')),
  c('git show --stat HEAD -- .git/config', auto('permissions_allow')),
  c('git log --output=notes.txt', auto('permissions_allow'), { note: 'an output file that is not protected' }),
  c('chmod 644 permissions.json', PROTECTED),
  c('chmod +x .git/hooks/pre-commit', PROTECTED),
  c('echo x > ./permissions.json', PROTECTED),
  c('cat x > .git/config', PROTECTED),
  c('git log > .git/hooks/post-merge', PROTECTED),
  c('git diff --output=$F', NEVER_AUTO),
]);

// The `.git` entry itself, at any depth. In a linked worktree or a submodule `.git` is a file,
// `gitdir: <path>`: rewritten, it sends the next auto-approved `git status` to a config (and its
// core.fsmonitor) that the command chose; removed or replaced, the repository is gone.
const DOT_GIT_ITSELF = [
  'echo "gitdir: evil" > .git',
  'printf "gitdir: ../x\\n" >> .git',
  'echo x >| .git',
  'echo x > ./.git',
  'echo x > .GIT',
  'echo x > .gi?',
  'echo x > .[g]it',
  "echo x > '.git'",
  'echo x > sub/.git',
  'echo x > src/../.git',
  'rm .git',
  'rm -f .git',
  'rm ./.git',
  'rm .Git',
  'rm sub/.git',
  'rm .gi*',
  'touch .git',
  'unlink .git',
  'shred -u .git',
  'truncate -s0 .git',
  'tee .git < x',
  'ln -sf evil .git',
];
runCases('a write, removal or touch of a .git entry itself asks (auto mode)', ISSUE9_AUTO, [
  ...DOT_GIT_ITSELF.map((command) => c(command, PROTECTED)),
  c('rm .gitignore', auto(), { note: 'names that only start with .git are ordinary files' }),
  c('echo x > .github', auto()),
  c('touch src/.gitkeep', auto()),
  c('echo node_modules >> .gitignore', auto()),
]);
runCases(
  'a write of a .git entry itself asks (issue 9 permissions)',
  ISSUE9,
  DOT_GIT_ITSELF.filter((command) => command.startsWith('echo')).map((command) => c(command, PROTECTED)),
);
