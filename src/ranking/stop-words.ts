/**
 * Words a task uses that say nothing about where the change is: English function words and the
 * verbs every task starts with ("add", "fix", "make", "support", "allow"). Left in, they match
 * symbols named `add` or `make` and crowd out the file the task is about (issue 7).
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again all also am an and any are as at be because been before being below between both but by can
  could did do does doing done down during each either else etc even ever every few for from further had has have having he
  her here hers him his how i if in into is it its itself just let lets like may me might more most must my no nor not now
  of off on once one only or other our ours out over own same she should since so some such than that the their theirs them
  then there these they this those though through thus to too under until up upon us very via was we were what when where
  whether which while who whom whose why will with within without would yet you your
  add adds added adding fix fixes fixed fixing make makes made making support supports supported supporting allow allows
  allowed allowing use uses used using update updates updated updating improve improves improved improving change changes
  changed changing implement implements implemented implementing ensure ensures ensured enable enables enabled
  feat feature features chore refactor refactored refactoring bug bugs issue issues pr instead properly correctly
  correct new now able possible better work works working need needs needed want wanted should would thing things way
  please thanks thank`
    .split(/\s+/)
    .filter(Boolean),
);
