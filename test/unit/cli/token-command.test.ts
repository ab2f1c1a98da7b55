// `berth token --help` names every subcommand (create, list, revoke), and `token create --help`
// points at `berth token list`, which the help then shows.
import { Command } from 'commander';
import { registerTokenCommand } from '../../../src/cli/token-command';

function helpOf(...path: string[]): string {
  const program = new Command('berth');
  registerTokenCommand(program);
  let cmd: Command = program;
  for (const name of path) {
    cmd = cmd.commands.find((c) => c.name() === name)!;
  }
  let out = '';
  cmd.configureOutput({ writeOut: (s) => (out += s) });
  cmd.outputHelp();
  return out;
}

describe('berth token help', () => {
  it('lists create, list and revoke with what they do', () => {
    const help = helpOf('token');
    expect(help).toMatch(/^\s+create \[options\]\s+create a token/m);
    expect(help).toMatch(/^\s+list\s+list tokens/m);
    expect(help).toMatch(/^\s+revoke <id>\s+revoke a token/m);
    expect(help).toContain('Authorization: Bearer');
  });

  it('says where --name shows, a subcommand the parent help lists', () => {
    expect(helpOf('token', 'create')).toContain('`berth token list`');
  });

  it('names the subcommands in the top-level help', () => {
    const program = new Command('berth');
    registerTokenCommand(program);
    expect(program.helpInformation()).toMatch(/token\s+manage API tokens: create, list, revoke/);
  });
});
