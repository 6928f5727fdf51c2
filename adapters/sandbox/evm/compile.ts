// Compiles the sandbox's Solidity (Uniswap's Permit2, a plain ERC-20, a Tether-like USDT, Multicall3) and the service's Permit2 spender with solc-js, once:
// the output is cached under .cache/ keyed by a hash of compiler, settings and sources.
import { createHash } from 'node:crypto';
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export type CompiledContract = { abi: unknown[]; bytecode: string };
export type SandboxArtifacts = {
  permit2: CompiledContract;
  plainToken: CompiledContract;
  tetherToken: CompiledContract;
  /** Runtime code (not creation code): placed at Multicall3's canonical address, as every production chain has it. */
  multicall3Runtime: string;
  /** The service's Permit2 spender (adapters/chains/evm/contracts): what the committed code must equal. */
  permit2Spender: SpenderArtifact;
};

/** Creation code, and runtime code with the 32-byte slots where the constructor's immutable (Permit2's address) goes. */
export type SpenderArtifact = { creationCode: string; runtimeTemplate: string; immutableOffsets: number[] };

const require = createRequire(import.meta.url);
const permit2Root = path.join(path.dirname(require.resolve('@uniswap/v4-periphery/package.json')), 'lib/permit2');
const spenderSourceFile = fileURLToPath(new URL('../../chains/evm/contracts/Permit2PaymentSpender.sol', import.meta.url));
const defaultCacheDir = fileURLToPath(new URL('../../../.cache/evm-sandbox/', import.meta.url));

/**
 * The plain ERC-20 (no EIP-3009) used for the Permit2 and direct-transfer paths. solmate's ERC20
 * already ships beside Permit2; only an owner-gated mint is added so the sandbox can fund buyers.
 */
const PLAIN_TOKEN_SOURCE = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.17;
import {ERC20} from "solmate/src/tokens/ERC20.sol";
contract SandboxToken is ERC20 {
    address public immutable owner;
    constructor(string memory name_, string memory symbol_, uint8 decimals_) ERC20(name_, symbol_, decimals_) {
        owner = msg.sender;
    }
    function mint(address to, uint256 amount) external {
        require(msg.sender == owner, "SandboxToken: not owner");
        _mint(to, amount);
    }
}
`;

/**
 * The sandbox's USDT: not Tether's own source (Solidity 0.4, which this project's solc-js cannot
 * compile, and no npm package ships it), but a minimal copy written here of the behaviour wallets
 * and relayers trip on: `transfer`, `transferFrom` and `approve` return nothing; `approve` reverts
 * when it would change one non-zero allowance to another (the buyer must approve 0 first); an
 * allowance of 2^256-1 is never spent down; calls shorter than their arguments revert. The owner
 * issues supply (`issue`) and, for the sandbox faucet only, mints to anyone (`mint`).
 */
const TETHER_TOKEN_SOURCE = `// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.17;
contract SandboxTetherToken {
    string public name;
    string public symbol;
    uint256 public decimals;
    address public owner;
    uint256 public totalSupply;
    uint256 public constant MAX_UINT = type(uint256).max;
    mapping(address => uint256) public balances;
    mapping(address => mapping(address => uint256)) public allowed;
    event Transfer(address indexed from, address indexed to, uint256 value);
    event Approval(address indexed owner, address indexed spender, uint256 value);
    event Issue(uint256 amount);
    modifier onlyOwner() {
        require(msg.sender == owner);
        _;
    }
    modifier onlyPayloadSize(uint256 size) {
        require(!(msg.data.length < size + 4));
        _;
    }
    constructor(uint256 initialSupply, string memory name_, string memory symbol_, uint256 decimals_) {
        owner = msg.sender;
        name = name_;
        symbol = symbol_;
        decimals = decimals_;
        totalSupply = initialSupply;
        balances[msg.sender] = initialSupply;
    }
    function balanceOf(address who) public view returns (uint256) {
        return balances[who];
    }
    function allowance(address holder, address spender) public view returns (uint256 remaining) {
        return allowed[holder][spender];
    }
    function transfer(address to, uint256 value) public onlyPayloadSize(2 * 32) {
        balances[msg.sender] -= value;
        balances[to] += value;
        emit Transfer(msg.sender, to, value);
    }
    function transferFrom(address from, address to, uint256 value) public onlyPayloadSize(3 * 32) {
        uint256 current = allowed[from][msg.sender];
        if (current < MAX_UINT) allowed[from][msg.sender] = current - value;
        balances[from] -= value;
        balances[to] += value;
        emit Transfer(from, to, value);
    }
    function approve(address spender, uint256 value) public onlyPayloadSize(2 * 32) {
        // Tether's rule: a non-zero allowance changes only through 0 (against the approve race).
        require(!((value != 0) && (allowed[msg.sender][spender] != 0)));
        allowed[msg.sender][spender] = value;
        emit Approval(msg.sender, spender, value);
    }
    function issue(uint256 amount) public onlyOwner {
        balances[owner] += amount;
        totalSupply += amount;
        emit Issue(amount);
    }
    function mint(address to, uint256 amount) external onlyOwner {
        balances[to] += amount;
        totalSupply += amount;
        emit Transfer(address(0), to, amount);
    }
}
`;

/**
 * Multicall3's `aggregate3` (mds1/multicall, MIT), the one function the relayer batches through,
 * with the same ABI and semantics: each call made in order, its failure allowed or reverting the
 * whole; `getChainId` for the start's self-check. Written here because no npm package ships the
 * contract; on production chains the canonical deployment at 0xcA11…CA11 is used.
 */
const MULTICALL3_SOURCE = `// SPDX-License-Identifier: MIT
pragma solidity ^0.8.17;
contract Multicall3 {
    struct Call3 { address target; bool allowFailure; bytes callData; }
    struct Result { bool success; bytes returnData; }
    function aggregate3(Call3[] calldata calls) public payable returns (Result[] memory returnData) {
        uint256 length = calls.length;
        returnData = new Result[](length);
        for (uint256 i = 0; i < length; i++) {
            Call3 calldata calli = calls[i];
            Result memory result = returnData[i];
            (result.success, result.returnData) = calli.target.call(calli.callData);
            require(calli.allowFailure || result.success, "Multicall3: call failed");
        }
    }
    function getChainId() external view returns (uint256 chainid) {
        chainid = block.chainid;
    }
}
`;

/**
 * Permit2's settings as Uniswap builds it (foundry.toml): via-IR, 1,000,000 optimizer runs, no
 * metadata hash. The EVM version matches the sandbox hardfork's supported opcodes.
 */
const SETTINGS = {
  viaIR: true,
  optimizer: { enabled: true, runs: 1_000_000 },
  metadata: { bytecodeHash: 'none' },
  evmVersion: 'cancun',
  outputSelection: {
    'src/Permit2.sol': { Permit2: ['abi', 'evm.bytecode.object'] },
    'sandbox/SandboxToken.sol': { SandboxToken: ['abi', 'evm.bytecode.object'] },
    'sandbox/SandboxTetherToken.sol': { SandboxTetherToken: ['abi', 'evm.bytecode.object'] },
    'sandbox/Multicall3.sol': { Multicall3: ['evm.deployedBytecode.object'] },
    'spender/Permit2PaymentSpender.sol': { Permit2PaymentSpender: ['evm.bytecode.object', 'evm.deployedBytecode.object', 'evm.deployedBytecode.immutableReferences'] },
  },
};

type Sources = Record<string, { content: string }>;

/**
 * Collects Permit2.sol and its imports. Permit2 pins `pragma solidity 0.8.17`; the installed
 * solc-js may be newer, so the exact pin is relaxed to `^0.8.17` in memory (code unchanged).
 */
function collectSources(): Sources {
  const sources: Sources = {};
  const visit = (unit: string, file: string): void => {
    if (sources[unit]) return;
    const content = readFileSync(file, 'utf8').replace(/pragma solidity 0\.8\.17;/, 'pragma solidity ^0.8.17;');
    sources[unit] = { content };
    for (const match of content.matchAll(/import\s+(?:\{[^}]*\}\s+from\s+)?"([^"]+)"/g)) {
      const target = match[1] ?? '';
      if (target.startsWith('solmate/')) {
        visit(target, path.join(permit2Root, 'lib/solmate', target.slice('solmate/'.length)));
      } else {
        const next = path.posix.normalize(path.posix.join(path.posix.dirname(unit), target));
        visit(next, path.join(permit2Root, next));
      }
    }
  };
  visit('src/Permit2.sol', path.join(permit2Root, 'src/Permit2.sol'));
  visit('solmate/src/tokens/ERC20.sol', path.join(permit2Root, 'lib/solmate/src/tokens/ERC20.sol'));
  sources['sandbox/SandboxToken.sol'] = { content: PLAIN_TOKEN_SOURCE };
  sources['sandbox/SandboxTetherToken.sol'] = { content: TETHER_TOKEN_SOURCE };
  sources['sandbox/Multicall3.sol'] = { content: MULTICALL3_SOURCE };
  sources['spender/Permit2PaymentSpender.sol'] = { content: readFileSync(spenderSourceFile, 'utf8') };
  return sources;
}

type SolcModule = { compile(input: string): string; version(): string };
type SolcOutput = {
  errors?: { severity: string; formattedMessage: string }[];
  contracts?: Record<
    string,
    Record<
      string,
      { abi: unknown[]; evm: { bytecode: { object: string }; deployedBytecode?: { object: string; immutableReferences?: Record<string, { start: number; length: number }[]> } } }
    >
  >;
};

function pick(output: SolcOutput, unit: string, name: string): CompiledContract {
  const contract = output.contracts?.[unit]?.[name];
  if (!contract) throw new Error(`solc produced no ${name}`);
  return { abi: contract.abi, bytecode: `0x${contract.evm.bytecode.object}` };
}

function spenderArtifact(output: SolcOutput): SpenderArtifact {
  const evm = output.contracts?.['spender/Permit2PaymentSpender.sol']?.Permit2PaymentSpender?.evm;
  const slots = Object.values(evm?.deployedBytecode?.immutableReferences ?? {}).flat();
  return {
    creationCode: `0x${evm?.bytecode.object ?? ''}`,
    runtimeTemplate: `0x${evm?.deployedBytecode?.object ?? ''}`,
    immutableOffsets: slots.map((r) => r.start).sort((a, b) => a - b),
  };
}

/**
 * Returns the compiled Permit2 and plain token, compiling only when the cache misses (about 4 s
 * with solc-js; Uniswap's pinned 0.8.17 takes about 15 s). Concurrent processes may both compile;
 * the cache file is written atomically so neither reads a torn file.
 */
export async function loadSandboxArtifacts(cacheDir: string = defaultCacheDir): Promise<SandboxArtifacts> {
  const solcPackage = JSON.parse(readFileSync(require.resolve('solc/package.json'), 'utf8')) as { version: string };
  const sources = collectSources();
  const input = { language: 'Solidity', sources, settings: SETTINGS };
  const key = createHash('sha256').update(solcPackage.version).update(JSON.stringify(input)).digest('hex').slice(0, 32);
  const cacheFile = path.join(cacheDir, `artifacts-${key}.json`);
  try {
    return JSON.parse(await readFile(cacheFile, 'utf8')) as SandboxArtifacts;
  } catch {
    // Cache miss: compile below.
  }
  const solc = require('solc') as SolcModule;
  const output = JSON.parse(solc.compile(JSON.stringify(input))) as SolcOutput;
  const errors = (output.errors ?? []).filter((error) => error.severity === 'error');
  if (errors.length > 0) throw new Error(`solc failed:\n${errors.map((error) => error.formattedMessage).join('\n')}`);
  const artifacts: SandboxArtifacts = {
    permit2: pick(output, 'src/Permit2.sol', 'Permit2'),
    plainToken: pick(output, 'sandbox/SandboxToken.sol', 'SandboxToken'),
    tetherToken: pick(output, 'sandbox/SandboxTetherToken.sol', 'SandboxTetherToken'),
    multicall3Runtime: `0x${output.contracts?.['sandbox/Multicall3.sol']?.Multicall3?.evm.deployedBytecode?.object ?? ''}`,
    permit2Spender: spenderArtifact(output),
  };
  if (artifacts.multicall3Runtime === '0x') throw new Error('solc produced no Multicall3');
  if (artifacts.permit2Spender.runtimeTemplate === '0x' || artifacts.permit2Spender.immutableOffsets.length === 0) throw new Error('solc produced no Permit2PaymentSpender');
  try {
    await mkdir(cacheDir, { recursive: true });
    const temporary = `${cacheFile}.${process.pid}.tmp`;
    await writeFile(temporary, JSON.stringify(artifacts));
    await rename(temporary, cacheFile);
  } catch (error) {
    // A read-only checkout still runs the sandbox; it just compiles on every start.
    console.warn(`EVM sandbox: could not cache compiled contracts in ${cacheDir}: ${String(error)}`);
  }
  return artifacts;
}
