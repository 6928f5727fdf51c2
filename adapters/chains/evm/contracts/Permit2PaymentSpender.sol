// SPDX-License-Identifier: Apache-2.0
pragma solidity ^0.8.17;

/// The one Permit2 (SignatureTransfer) function this contract calls, with Permit2's own types.
interface IPermit2WitnessTransfer {
    struct TokenPermissions {
        address token;
        uint256 amount;
    }
    struct PermitTransferFrom {
        TokenPermissions permitted;
        uint256 nonce;
        uint256 deadline;
    }
    struct SignatureTransferDetails {
        address to;
        uint256 requestedAmount;
    }

    function permitWitnessTransferFrom(
        PermitTransferFrom calldata permit,
        SignatureTransferDetails calldata transferDetails,
        address owner,
        bytes32 witness,
        string calldata witnessTypeString,
        bytes calldata signature
    ) external;
}

/// The spender a buyer names in a `PermitWitnessTransferFrom` whose witness is
/// `PaymentWitness(bytes32 payment, address destination)`. Permit2 checks that the signature covers
/// the witness hash it is given but lets the spender choose where the tokens go; this contract
/// rebuilds that hash from the payment and destination it is called with and sends the tokens to
/// that same destination, always the whole signed amount. A caller who names another destination
/// (or amount) presents a witness the buyer did not sign and Permit2 refuses it, so anyone may call:
/// whoever submits a permit can only pay the merchant the buyer signed for.
/// No owner, no storage, no funds held, nothing to upgrade.
contract Permit2PaymentSpender {
    /// One signed permit and the witness it was signed with.
    struct Payment {
        IPermit2WitnessTransfer.PermitTransferFrom permit;
        address owner;
        bytes32 payment;
        address destination;
        bytes signature;
    }

    /// Emitted right after the token moved: the relayer pairs each payment with the Transfer before it.
    event Paid(bytes32 indexed payment, address indexed owner, uint256 nonce);

    bytes32 private constant WITNESS_TYPEHASH = keccak256("PaymentWitness(bytes32 payment,address destination)");
    string private constant WITNESS_TYPE_STRING =
        "PaymentWitness witness)PaymentWitness(bytes32 payment,address destination)TokenPermissions(address token,uint256 amount)";

    IPermit2WitnessTransfer public immutable permit2;

    constructor(IPermit2WitnessTransfer permit2_) {
        permit2 = permit2_;
    }

    /// Pays one permit to its witness destination; reverts when Permit2 refuses it.
    function pay(Payment calldata p) public {
        bytes32 witness = keccak256(abi.encode(WITNESS_TYPEHASH, p.payment, p.destination));
        permit2.permitWitnessTransferFrom(
            p.permit,
            IPermit2WitnessTransfer.SignatureTransferDetails({to: p.destination, requestedAmount: p.permit.permitted.amount}),
            p.owner,
            witness,
            WITNESS_TYPE_STRING,
            p.signature
        );
        emit Paid(p.payment, p.owner, p.permit.nonce);
    }

    /// Gas each permit of a batch is given, always in full: a standard token's permit takes about 70k.
    uint256 private constant PAY_GAS = 200_000;

    /// Too little gas left to give the next permit its PAY_GAS: the caller's limit, not a bad permit.
    error OutOfGas();

    /// Pays each permit in its own call with PAY_GAS: one Permit2 refuses changes nothing for the
    /// others. A limit too low to give every call its gas reverts the whole batch instead of letting
    /// good permits fail for want of gas (a gas estimate would otherwise settle on such a limit).
    function payAll(Payment[] calldata payments) external returns (bool[] memory paid) {
        paid = new bool[](payments.length);
        for (uint256 i = 0; i < payments.length; i++) {
            if (gasleft() < PAY_GAS + PAY_GAS / 63 + 10_000) revert OutOfGas();
            try this.pay{gas: PAY_GAS}(payments[i]) {
                paid[i] = true;
            } catch {}
        }
    }
}
