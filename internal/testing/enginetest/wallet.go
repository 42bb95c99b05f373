package enginetest

import "github.com/chapar/chapar/pkg/wallet"

func walletCredit(accountID, amount int64) wallet.Entry {
	return wallet.Entry{AccountID: accountID, Kind: wallet.AdminCredit, Amount: amount, Description: "test credit"}
}
