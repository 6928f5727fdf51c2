import { TypedDataEncoder, Wallet } from 'ethers';
import { describe, expect, it } from 'vitest';
import { derivePaymentReference, deriveNonce } from './nonce.ts';
import { buildPermitTransferFrom } from './permit2.ts';
import { PAYMENT_WITNESS_TYPE_STRING, buildPermitWitnessTransferFrom, verifyPermitWitnessTransferFrom, witnessDestination, type PermitWitnessInput } from './permit2-witness.ts';
import { toEthersTypedData, type Eip712TypedData } from './typed-data.ts';

const buyer = Wallet.createRandom();
const destination = Wallet.createRandom().address;
const input: PermitWitnessInput = {
  permit2: '0x000000000022D473030F116dDEE9F6B43aC78BA3',
  chainId: 8453n,
  token: '0x833589fCD6eDb6E08f4c7C32D4f71b54bdA02913',
  amount: 2_500_000n,
  spender: Wallet.createRandom().address,
  nonce: deriveNonce('pay_w', 'opt_w').permit2,
  deadline: 1_900_000_000n,
  payment: derivePaymentReference('pay_w'),
  destination,
};
const sign = (td: Eip712TypedData) => {
  const { domain, types, message } = toEthersTypedData(td);
  return buyer.signTypedData(domain, types, message);
};

describe('Permit2 witness: the buyer signs the payment and the destination', () => {
  it('hashes the type exactly as Permit2 rebuilds it from its stub and our witness type string', () => {
    const { types } = toEthersTypedData(buildPermitWitnessTransferFrom(input));
    const stub = 'PermitWitnessTransferFrom(TokenPermissions permitted,address spender,uint256 nonce,uint256 deadline,';
    expect(TypedDataEncoder.from(types).encodeType('PermitWitnessTransferFrom')).toBe(stub + PAYMENT_WITNESS_TYPE_STRING);
  });

  it('names the payment reference and the destination, and verifies only a signature over exactly that', async () => {
    const td = buildPermitWitnessTransferFrom(input);
    expect(td.message.witness).toEqual({ payment: derivePaymentReference('pay_w'), destination });
    expect(witnessDestination(td)).toBe(destination);
    expect(verifyPermitWitnessTransferFrom(td, await sign(td), buyer.address)).toBe(true);
    const elsewhere = buildPermitWitnessTransferFrom({ ...input, destination: Wallet.createRandom().address });
    expect(verifyPermitWitnessTransferFrom(td, await sign(elsewhere), buyer.address)).toBe(false);
    const otherPayment = buildPermitWitnessTransferFrom({ ...input, payment: derivePaymentReference('pay_other') });
    expect(verifyPermitWitnessTransferFrom(td, await sign(otherPayment), buyer.address)).toBe(false);
    // A plain PermitTransferFrom over the same permit leaves the destination to the relayer: refused.
    const bare = buildPermitTransferFrom({
      permit2: input.permit2,
      chainId: input.chainId,
      token: input.token,
      amount: input.amount,
      spender: input.spender,
      nonce: input.nonce,
      deadline: input.deadline,
    });
    expect(verifyPermitWitnessTransferFrom(td, await sign(bare), buyer.address)).toBe(false);
    expect(verifyPermitWitnessTransferFrom(bare, await sign(bare), buyer.address)).toBe(false);
  });

  it('derives one reference per payment, different between payments', () => {
    expect(derivePaymentReference('pay_a')).toMatch(/^0x[0-9a-f]{64}$/);
    expect(derivePaymentReference('pay_a')).toBe(derivePaymentReference('pay_a'));
    expect(derivePaymentReference('pay_a')).not.toBe(derivePaymentReference('pay_b'));
    expect(derivePaymentReference('pay_a')).not.toBe(deriveNonce('pay_a', 'opt').eip3009);
  });
});
