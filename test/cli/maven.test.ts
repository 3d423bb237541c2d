// The checks on a Maven project, with the real Maven, JDK and Surefire (scripts/install-maven.sh puts Debian's on the
// test machines; the project runs Maven offline from Debian's /usr/share/maven-repo through `.mvn/maven.config`):
// `mvn test` is detected from pom.xml, a failure already in the project gets no fix round, and TSR and fail-first
// read Surefire's cases — including a new test class that does not compile without the change.
import * as assert from 'assert';
import { type FakeAnthropic } from '../fake-anthropic/server';
import { useToolchain } from '../helpers/fakeSuite';
import { assertFailedAsBefore, checksWorkspace, runWithChecks } from '../helpers/toolchainSession';

const plugin = (artifact: string, version: string) =>
  `<plugin><groupId>org.apache.maven.plugins</groupId><artifactId>${artifact}</artifactId><version>${version}</version></plugin>`;

/** A one-module project on Debian's packaged plugins and JUnit 4 (the versions scripts/install-maven.sh checks). */
const POM = `<project xmlns="http://maven.apache.org/POM/4.0.0">
  <modelVersion>4.0.0</modelVersion>
  <groupId>calc</groupId><artifactId>calc</artifactId><version>1.0</version>
  <properties>
    <maven.compiler.source>11</maven.compiler.source><maven.compiler.target>11</maven.compiler.target>
    <project.build.sourceEncoding>UTF-8</project.build.sourceEncoding>
  </properties>
  <dependencies>
    <dependency><groupId>junit</groupId><artifactId>junit</artifactId><version>4.13.2</version><scope>test</scope></dependency>
  </dependencies>
  <build><plugins>
    ${plugin('maven-compiler-plugin', '3.10.1')}
    ${plugin('maven-resources-plugin', '3.3.0')}
    ${plugin('maven-surefire-plugin', '2.22.3')}
  </plugins></build>
</project>
`;

const junit = (cls: string, ...tests: string[]) =>
  `package calc;\n\nimport org.junit.Test;\nimport static org.junit.Assert.assertEquals;\n\npublic class ${cls} {\n${tests.join('\n')}}\n`;
const junitTest = (name: string, expected: number, actual: string) => `  @Test\n  public void ${name}() {\n    assertEquals(${expected}, ${actual});\n  }\n`;

describe('CLI: checks on a Maven project (mvn test, Surefire)', function () {
  this.timeout(240000);
  let fake: FakeAnthropic;
  useToolchain('mvn', ['-B', '--version'], 'scripts/install-maven.sh', { chunkSize: 256 }, (f) => (fake = f));

  it('detected from pom.xml; a failure already there gets no fix round; TSR and fail-first read Surefire\'s output', async () => {
    const ws = checksWorkspace(
      fake,
      'task-mvn',
      {
        'pom.xml': POM,
        '.mvn/maven.config': '-o -B -Dmaven.repo.local=/usr/share/maven-repo\n',
        'src/main/java/calc/Calc.java':
          'package calc;\n\npublic class Calc {\n  public static int add(int a, int b) { return a + b; }\n  public static int mul(int a, int b) { return a + b; }\n  public static int div(int a, int b) { return a * b; }\n}\n',
        // the project's own suite: testDiv fails before DevA touches anything
        'src/test/java/calc/CalcTest.java': junit('CalcTest', junitTest('testAdd', 5, 'Calc.add(2, 3)'), junitTest('testDiv', 2, 'Calc.div(6, 3)')),
      },
      '<edit path="src/main/java/calc/Calc.java">\n<<<<<<< SEARCH\n  public static int mul(int a, int b) { return a + b; }\n=======\n  public static int mul(int a, int b) { return a * b; }\n  public static int sq(int a) { return a * a; }\n>>>>>>> REPLACE\n</edit>\n\n' +
        `<file path="src/test/java/calc/MulTest.java">\n${junit('MulTest', junitTest('testMulSmall', 6, 'Calc.mul(2, 3)'), junitTest('testSquare', 9, 'Calc.sq(3)'))}</file>`,
      [
        { criterion: 'AC-1', file: 'src/test/java/calc/MulTest.java', test: 'testMulSmall', expect: 'fail' },
        { criterion: 'AC-2', file: 'src/test/java/calc/CalcTest.java', test: 'testAdd', expect: 'pass' },
        { criterion: 'AC-3', file: 'src/test/java/calc/MulTest.java', test: 'testSquare', expect: 'fail' },
      ],
    );
    const run = await runWithChecks(fake, ws, 'task-mvn', 'Fix mul', 'auto', 200000);
    assertFailedAsBefore(run, fake, 'testDiv fails on the unchanged code too', [
      // with the change, Surefire names only testDiv as failing: the criteria's tests ran and passed. Without it,
      // MulTest does not compile (Calc.sq is new): javac names MulTest.java, so its tests did not build there, and no
      // test of the other classes ran
      ['AC-1', 'pass', 'unbuilt'],
      ['AC-2', 'pass', 'no_test'],
      ['AC-3', 'pass', 'unbuilt'],
    ]);
    assert.deepStrictEqual(run.json.checks.map((c: any) => [c.command, c.passed]), [['mvn test', false]]);
    assert.deepStrictEqual(run.json.failFirst.testFiles, ['src/test/java/calc/MulTest.java']);
    // the fix request never went out; the retrospective heard which case failed, by Surefire's name
    assert.match(JSON.stringify(fake.requests[4].body.messages), /calc\.CalcTest\.testDiv/);
  });
});
